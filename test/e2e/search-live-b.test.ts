import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { H, HOUR, WINDOW, seedFixture } from "../api/read-fixture";

const session = useBrowserSession({ seed: seedFixture });
let server: ProjectServer;
let page: Page;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

describe("search box", () => {
  it("`/` focuses it; a prefix lists runs, tools and codes; Enter goes to the first", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    await page.locator("h1").click();
    const input = page.getByTestId("search-input");
    // The shortcut's listener is set when the search box mounts, which on a busy machine can come
    // after the page reports it hydrated: press until it takes (a press before then does nothing).
    await expect
      .poll(async () => {
        await page.keyboard.press("/");
        return input.evaluate((el) => el === document.activeElement);
      })
      .toBe(true);
    await input.fill("run-");
    await expect.poll(() => page.getByTestId("search-hits").locator("li").allTextContents()).toEqual(["run run-1", "run run-2", "run run-3", "run run-4", "run run-5", "text search messages and told texts for “run-”"]);
    expect(await page.getByTestId("search-status").innerText()).toBe("More match: type more to narrow.");
    await input.fill("upstream");
    await expect.poll(() => page.getByTestId("search-hits").locator("li").allTextContents()).toEqual(["code upstream_unavailable", "text search messages and told texts for “upstream”"]);
    await input.press("Enter");
    await page.waitForURL(/\/codes\/upstream_unavailable\?project=/);
    // The URL changes before the code page has rendered.
    await expect.poll(() => page.locator("h1").first().innerText()).toContain("upstream_unavailable");
  });

  it("finds a tool and a release; no match says so", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    const input = page.getByTestId("search-input");
    await input.fill("look");
    await expect.poll(() => page.getByTestId("search-hits").locator("li").allTextContents()).toEqual(["tool lookup", "text search messages and told texts for “look”"]);
    await input.fill("r2");
    await expect.poll(() => page.getByTestId("search-hits").locator("li").allTextContents()).toEqual(["release r2", "text search messages and told texts for “r2”"]);
    await input.fill("zzz");
    await expect.poll(() => page.getByTestId("search-status").innerText()).toBe("No run, call, tool, code or release starts with “zzz”.");
  });

  it("finds a call id, exact match first, and opens its run with the call's first attempt selected", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    const input = page.getByTestId("search-input");
    await input.fill("c1");
    await expect
      .poll(() => page.getByTestId("search-hits").locator("li").allTextContents())
      .toEqual(["call c1 in run run-1", "call c10 in run run-5", "call c11 in run run-6", "text search messages and told texts for “c1”"]);
    await input.press("Enter");
    // c1's first attempt is the fixture's first span.
    await page.waitForURL(/\/runs\/run-1\?project=[^&]+&attempt=span-0$/);
    await expect.poll(() => page.getByTestId("attempt-details").locator("h2").first().textContent()).toBe("cancel_booking · c1 · attempt 1");
  });
});

describe("live refresh with a fake clock", () => {
  it("refetches every 10 s while visible and says how old the numbers are", async () => {
    await page.clock.install({ time: new Date(H + 4 * HOUR) });
    let overviewReads = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/overview")) overviewReads++;
    });
    await page.goto(server.at(`/?${WINDOW}&refresh=10s`));
    await page.getByTestId("tile-calls").waitFor();
    expect(await page.locator("select[name=refresh]").inputValue()).toBe("10s");
    await page.clock.fastForward(5_000);
    await expect.poll(() => page.getByTestId("updated-ago").innerText()).toMatch(/^updated \d+ s ago$/);
    const before = overviewReads;
    await page.clock.fastForward(10_000);
    await expect.poll(() => overviewReads).toBeGreaterThan(before);
    await page.clock.fastForward(1_000);
    await expect.poll(() => page.getByTestId("updated-ago").innerText()).toMatch(/^updated [0-2] s ago$/);
  });

  it("off by default: no reads while time passes", async () => {
    await page.clock.install({ time: new Date(H + 4 * HOUR) });
    let overviewReads = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/overview")) overviewReads++;
    });
    await page.goto(server.at(`/?${WINDOW}`));
    await page.getByTestId("tile-calls").waitFor();
    const before = overviewReads;
    await page.clock.fastForward(120_000);
    await page.waitForTimeout(300);
    expect(overviewReads).toBe(before);
    expect(await page.locator("select[name=refresh]").inputValue()).toBe("");
  });
});

describe("time", () => {
  it("a custom range applies absolute from/to; release markers show; compare adds previous-period figures", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    // r1 and r2 both first appear in the window's first hour (lookup ran on r2 at 00:30).
    await expect.poll(async () => (await page.locator(".release-list li").allInnerTexts()).map((t) => t.trim())).toEqual(["r1 first seen 01-10 00:00", "r2 first seen 01-10 00:00"]);
    // The markers sit on the chart, which loads after the first paint.
    await expect.poll(() => page.locator(".release-mark").count()).toBe(2);
    // The checkbox follows the URL, which changes a moment after the click.
    await page.locator("input[name=compare]").click();
    await page.waitForURL(/compare=previous/);
    await expect.poll(() => page.getByTestId("tile-calls").innerText()).toContain("new vs previous period (was 0)");
    await page.locator("select[name=range]").selectOption("pick");
    const picker = page.getByTestId("range-picker");
    await picker.locator("input[name=utc]").check();
    await picker.locator("input[name=from]").fill("2026-01-10T01:00");
    await picker.locator("input[name=to]").fill("2026-01-10T02:00");
    await picker.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(new RegExp(`from=${H + HOUR}&to=${H + 2 * HOUR}`));
    await expect.poll(() => page.getByTestId("tile-calls").innerText()).toMatch(/^Calls\s+3\b/);
  });

  it("the tool page compares its tiles with the previous period", async () => {
    // 01:00–02:00 against 00:00–01:00 for cancel_booking (figures in test/api/tool-compare.test.ts).
    await page.goto(server.at(`/tools/cancel_booking?from=${H + HOUR}&to=${H + 2 * HOUR}`));
    await page.getByTestId("tile-calls").waitFor();
    await page.locator("input[name=compare]").click();
    await page.waitForURL(/compare=previous/);
    await expect.poll(() => page.getByTestId("tile-calls-not-ok").innerText()).toContain("+50.0 pts vs previous (50.0%)");
    expect(await page.getByTestId("tile-calls").innerText()).toContain("+0% vs previous (2)");
    expect(await page.getByTestId("tile-attempts").innerText()).toContain("−0.50 vs previous (1.50)");
    expect(await page.getByTestId("tile-delays").innerText()).toContain("previous period: 2 s / 30 s · 0 failed closed");
  });
});
