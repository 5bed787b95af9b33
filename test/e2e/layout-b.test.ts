import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { WINDOW, emptyProjectOf, seedFixture } from "../api/read-fixture";

// Phone width, hydration, page titles and the shell's keyboard path, on every page.
const session = useBrowserSession({ seed: seedFixture, viewport: { width: 390, height: 844 } });
let server: ProjectServer;
let page: Page;
const consoleErrors = session.consoleErrors;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

export const PAGES: { path: string; title: string }[] = [
  { path: `/?${WINDOW}`, title: "Overview · Faultline" },
  { path: `/tools?${WINDOW}`, title: "Tools · Faultline" },
  { path: `/tools/cancel_booking?${WINDOW}`, title: "cancel_booking · Tools · Faultline" },
  { path: `/codes?${WINDOW}`, title: "Codes · Faultline" },
  { path: `/codes/upstream_unavailable?${WINDOW}`, title: "upstream_unavailable · Codes · Faultline" },
  { path: "/runs", title: "Runs · Faultline" },
  { path: "/runs/run-1", title: "Run · Faultline" },
  { path: "/drift", title: "Drift · Faultline" },
  { path: "/conformance", title: "Conformance · Faultline" },
];

const settle = async () => {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(200);
};

describe("every page at 390×844", () => {
  for (const p of PAGES) {
    it(`${p.path}: no horizontal page scroll, its own title, no hydration or console errors`, async () => {
      await page.goto(server.at(p.path));
      await settle();
      expect(await page.title()).toBe(p.title);
      const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
      expect(width, p.path).toBeLessThanOrEqual(390);
      expect(consoleErrors).toEqual([]);
    });
  }

  it("the empty Overview (first-run guide) hydrates without error #418", async () => {
    await page.goto(`${server.url}/?project=${encodeURIComponent(emptyProjectOf(server.project))}`);
    await page.getByTestId("first-run-guide").waitFor();
    await settle();
    expect(consoleErrors).toEqual([]);
    expect(session.pageErrors).toEqual([]);
    // The curl example names the page's own origin once hydrated.
    await expect.poll(() => page.locator("pre.code").first().innerText()).toContain(server.url);
  });

  it("the menu folds behind a button and opens and closes", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    const toggle = page.getByTestId("menu-toggle");
    const tools = page.locator("nav[aria-label=Sections] a", { hasText: "Tools" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await tools.isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await tools.isVisible()).toBe(true);
    await toggle.click();
    expect(await tools.isVisible()).toBe(false);
    // Following a link closes it again, and the link keeps the project.
    await toggle.click();
    await tools.click();
    await page.waitForURL(/\/tools\?project=/);
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
  });

  it("Overview tables keep their key columns on a phone", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    const visibleHeaders = (id: string) =>
      page.locator(`[data-testid=${id}] thead th`).evaluateAll((ths) => ths.filter((th) => (th as HTMLElement).offsetParent !== null).map((th) => th.textContent));
    expect(await visibleHeaders("top-tools")).toEqual(["tool", "failed", "failure rate"]);
    expect(await visibleHeaders("top-codes")).toEqual(["code", "failed attempts"]);
  });
});

describe("keyboard path", () => {
  it("a skip link leads to the main content; client navigation focuses the new page's heading", async () => {
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.goto(server.at(`/?${WINDOW}`));
    await page.keyboard.press("Tab");
    const skip = page.locator("a.skip-link");
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await skip.getAttribute("href")).toBe("#main");
    expect(await page.locator("header.app-nav").count()).toBe(1);
    expect(await page.locator("main#main").count()).toBe(1);
    await page.locator("nav[aria-label=Sections] a", { hasText: "Codes" }).click();
    await page.waitForURL(/\/codes/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName + ":" + document.activeElement?.textContent)).toBe("H1:Codes");
  });
});
