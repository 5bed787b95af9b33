import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { Store } from "@/db/client";
import { createProject } from "@/db/keys";
import { WINDOW, emptyProjectOf, seedFixture } from "../api/read-fixture";
import { seriousViolations } from "../helpers/axe";
import { connectBrowser } from "../helpers/browser";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { startServer, type TestServer } from "../helpers/server";

// Issue 32: a range that fits the data, skeletons while charts load, a server that stops answering,
// a sidebar as tall as the page, the same controls everywhere, and a new project's first steps.
const session = useBrowserSession({ seed: seedFixture, viewport: { width: 1440, height: 900 } });
let server: ProjectServer;
let page: Page;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

const HINT = "No calls in the last 24 hours (the default range); this project has older ones. Show the last 7 days Show the last 30 days";

describe("the default range and loading", () => {
  it("starts on the last 24 hours and offers a wider range when the day is empty", async () => {
    // The fixture's calls are from January 2026: none in the last day.
    await page.goto(server.at("/"));
    expect(await page.locator("select[name=range]").inputValue()).toBe("24h");
    expect(await page.locator("select[name=range] option:checked").innerText()).toBe("Last 24 hours");
    const hint = page.getByTestId("range-hint");
    expect((await hint.innerText()).replace(/\s+/g, " ")).toBe(HINT);
    await hint.getByRole("button", { name: "Show the last 7 days" }).click();
    await page.waitForURL(/range=7d/);
    expect(await page.locator("select[name=range] option:checked").innerText()).toBe("Last 7 days");
    await expect.poll(() => hint.count()).toBe(0);
    // An explicit window with calls shows no hint.
    await page.goto(server.at(`/?${WINDOW}`));
    expect(await page.getByTestId("tile-calls").innerText()).toContain("10");
    expect(await hint.count()).toBe(0);
  });

  it("shows a skeleton of the chart's own height until the chart's code arrives, then the chart", async () => {
    // Hold the chart library's script: its chunk carries recharts' class names.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held = 0;
    await page.route("**/_next/static/chunks/*.js", async (route) => {
      try {
        const response = await route.fetch();
        const body = await response.text();
        if (body.includes("recharts-surface")) {
          held += 1;
          await released;
        }
        await route.fulfill({ response, body });
      } catch {
        // The page closed while the script was held.
      }
    });
    await page.goto(server.at(`/?${WINDOW}`));
    const figure = page.getByRole("figure", { name: "Outcome mix over time" });
    const skeleton = figure.getByTestId("chart-skeleton");
    await expect.poll(() => held).toBeGreaterThan(0);
    await skeleton.waitFor();
    expect((await skeleton.boundingBox())?.height).toBe(240);
    expect(await figure.locator(".recharts-surface").count()).toBe(0);
    release();
    await figure.locator(".recharts-surface").first().waitFor();
    expect(await skeleton.count()).toBe(0);
  });
});

describe("the page frame", () => {
  it("the sidebar's background runs the whole height of a page taller than the window", async () => {
    await page.goto(server.at(`/tools/cancel_booking?${WINDOW}`));
    const sizes = await page.evaluate(() => {
      const side = document.querySelector<HTMLElement>("[data-testid=app-side]")!;
      const nav = document.querySelector<HTMLElement>(".app-nav")!;
      return {
        page: document.documentElement.scrollHeight,
        side: Math.round(side.getBoundingClientRect().height),
        sideBackground: getComputedStyle(side).backgroundColor,
        navBackground: getComputedStyle(nav).backgroundColor,
      };
    });
    expect(sizes.page).toBeGreaterThan(900);
    expect(sizes.side).toBe(sizes.page);
    expect(sizes.sideBackground).toBe(sizes.navBackground);
    // Scrolled to the bottom, the nav is still on screen and the column under it is the panel's colour.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.locator("nav[aria-label=Sections]").isVisible()).toBe(true);
    const bottom = await page.evaluate(() => {
      const el = document.elementFromPoint(90, window.innerHeight - 4)!;
      return { testId: el.closest("[data-testid=app-side]") !== null };
    });
    expect(bottom).toEqual({ testId: true });
  });

  it("the alert pages' controls look like the filter bar's", async () => {
    await page.goto(server.at(`/tools?${WINDOW}`));
    const filterSelect = await page.locator(".filter-bar select[name=range]").evaluate((el) => {
      const s = getComputedStyle(el);
      return { radius: s.borderRadius, border: s.borderTopColor, background: s.backgroundColor, font: s.fontFamily };
    });
    await page.goto(server.at("/alerts"));
    await page.locator('table[aria-label="Alert rules"] tbody tr').first().waitFor();
    const styleOf = (selector: string) =>
      page
        .locator(`main ${selector}`)
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return { radius: s.borderRadius, border: s.borderTopColor, background: s.backgroundColor, font: s.fontFamily };
        });
    expect(await styleOf("table button")).toEqual(filterSelect);
    for (const selector of ["input:not([type=checkbox])", "select"]) {
      if ((await page.locator(`main ${selector}`).count()) > 0) expect(await styleOf(selector), selector).toEqual(filterSelect);
    }
  });
});

describe("a new project's first steps", () => {
  it("links to the project's Keys tab and shows the key command for this project", async () => {
    const empty = emptyProjectOf(server.project);
    await page.goto(server.at(`/?project=${empty}`));
    const guide = page.getByTestId("first-run-guide");
    expect(await guide.getByTestId("key-command").innerText()).toBe(`npm run keys -- create --project ${empty}`);
    const link = guide.getByRole("link", { name: "Make a key on the project’s Keys tab" });
    expect(await link.getAttribute("href")).toBe(`/settings/projects/${empty}/keys`);
    await link.click();
    await page.waitForURL(new RegExp(`/settings/projects/${empty}/keys$`));
    expect(await page.locator("nav[aria-label='Project settings'] a[aria-current=page]").innerText()).toBe("Keys");
  });
});

describe("axe on the pages issue 32 touched", () => {
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  for (const scheme of ["light", "dark"] as const) {
    for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      it(`${scheme}, ${viewport.width}×${viewport.height}: no serious or critical violation`, async () => {
        context = await session.context().browser()!.newContext({ bypassCSP: true, colorScheme: scheme, viewport });
        const p = await context.newPage();
        const found: Record<string, string[]> = {};
        for (const path of ["/", `/?project=${emptyProjectOf(server.project)}`, "/alerts"]) {
          await p.goto(server.at(path));
          await p.locator("html[data-hydrated]").waitFor({ state: "attached" });
          await p.waitForLoadState("networkidle");
          const v = await seriousViolations(p);
          if (v.length > 0) found[path] = v;
        }
        expect(found).toEqual({});
      }, 120_000);
    }
  }
});

describe("with the server stopped, the sections stay in the app", () => {
  let own: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let p: Page;
  beforeAll(async () => {
    // This test stops its server: it gets one of its own, not the run's shared one.
    const seed = async (s: Store) => {
      await createProject(s, "stopped", "stopped");
      await seedFixture(s, "stopped");
    };
    [own, browser] = await Promise.all([startServer({ dialect: inject("serverDialect"), seed }), connectBrowser(inject("browserWsEndpoint"))]);
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    p = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await own?.stop();
  });

  it("a sort arrow keeps the order of the rows on screen; a sidebar link says Faultline cannot be reached, keeps the page, and retries", async () => {
    const here = `${own.url}/tools?project=stopped&${WINDOW}`;
    await p.goto(here);
    await p.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const rows = () => p.locator("[data-testid=tools-table] tbody tr[data-tool]").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-tool")));
    await expect.poll(async () => (await rows()).length).toBe(4);
    const before = await rows();
    const sorted = () => p.locator("[data-testid=tools-table] th[aria-sort]").evaluateAll((ths) => ths.map((th) => `${th.textContent?.trim()} ${th.getAttribute("aria-sort")}`));
    const initial = await sorted();
    expect(initial).toHaveLength(1);
    await own.stop();

    // The new order's answer never comes: the arrow stays on the order the rows have.
    await p.getByRole("button", { name: "mean attempts" }).click();
    await p.waitForURL(/sort=mean_attempts/);
    await p.getByTestId("query-error").waitFor({ timeout: 15_000 });
    expect(await rows()).toEqual(before);
    expect(await sorted()).toEqual(initial);
    const pending = p.locator("[data-testid=tools-table] th[data-sort-pending]");
    expect(await pending.innerText()).toBe("mean attempts");
    expect(await pending.locator("button").evaluate((b) => getComputedStyle(b, "::after").content)).toBe('" …"');
    const stale = p.url();

    await p.locator("nav[aria-label=Sections] a", { hasText: "Codes" }).click();
    const notice = p.getByTestId("unreachable");
    await notice.waitFor({ timeout: 15_000 });
    expect((await notice.innerText()).replace(/\s+/g, " ")).toBe(
      "Cannot reach Faultline. The server did not answer, so “/codes” could not be opened; this page stays as it was loaded. Try again Dismiss",
    );
    expect(p.url()).toBe(stale);
    expect(await p.locator("h1").first().innerText()).toBe("Tools");
    expect(await rows()).toEqual(before);
    await notice.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => notice.getByRole("button", { name: "Try again" }).isEnabled()).toBe(true);
    expect((await notice.innerText()).startsWith("Cannot reach Faultline.")).toBe(true);
    expect(p.url()).toBe(stale);
    await notice.getByRole("button", { name: "Dismiss" }).click();
    expect(await notice.count()).toBe(0);
  });
});
