import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { MARKUP_CODE, SCRIPT_TOOL, WINDOW, emptyProjectOf, seedFixture } from "../api/read-fixture";

// If markup from a tool name or code ever ran, it would call alert(): the session fails the test.
const session = useBrowserSession({ seed: seedFixture, viewport: { width: 1400, height: 1000 } });
const { pageErrors } = session;
let server: ProjectServer;
let page: Page;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

const text = (testId: string) => page.getByTestId(testId).innerText();

describe("dashboard in Chromium", () => {
  it("Overview shows the window's numbers with declined and refused apart", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    expect(await text("tile-calls")).toContain("10");
    expect(await text("tile-failure-rate")).toContain("53.8%");
    expect(await text("tile-declined")).toMatch(/Declined\s+1\s+the tool said no/);
    expect(await text("tile-refused")).toMatch(/Refused\s+1\s+permission said no/);
    expect(await text("tile-retries")).toMatch(/3\s+2 calls retried · 36 s waited/);
    expect(await text("tile-failed-closed")).toContain("1");
    const legend = await page.getByLabel("Outcomes").first().innerText();
    expect(legend).toContain("declined (tool said no)");
    expect(legend).toContain("refused (permission said no)");
    const topTools = await text("top-tools");
    expect(topTools).toContain(SCRIPT_TOOL);
    expect(topTools).toMatch(/cancel_booking\s+5\s+4\s+80\.0%/);
    expect(await text("top-codes")).toContain(MARKUP_CODE);
    // The hatched pattern of refused exists in the chart.
    expect(await page.locator("pattern#fill-refused").count()).toBeGreaterThan(0);
    await page.screenshot({ path: "test-results/dashboard-overview.png", fullPage: true });
  });

  it("renders tool names and codes with markup as text", async () => {
    await page.goto(server.at(`/?${WINDOW}`));
    expect(await text("top-tools")).toContain(SCRIPT_TOOL);
    expect(await text("top-codes")).toContain(MARKUP_CODE);
    expect(await page.locator("b", { hasText: "bold" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("Tools: a filter changes the URL and the table; a copied URL reproduces the view; back works", async () => {
    await page.goto(server.at(`/tools?${WINDOW}`));
    const rows = () => page.locator("[data-testid=tools-table] tbody tr[data-tool]");
    expect(await rows().count()).toBe(4);
    expect(await rows().first().innerText()).toMatch(/^cancel_booking/);
    await page.locator("select[name=code]").selectOption("upstream_unavailable");
    await page.waitForURL(/code=upstream_unavailable/);
    await expect.poll(() => rows().count()).toBe(2);
    const narrowed = page.url();
    expect(await rows().nth(1).innerText()).toMatch(/^lookup/);

    const copy = await session.context().newPage();
    await copy.goto(narrowed);
    expect(await copy.locator("[data-testid=tools-table] tbody tr[data-tool]").count()).toBe(2);
    expect(await copy.locator("select[name=code]").inputValue()).toBe("upstream_unavailable");
    await copy.close();

    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("code="));
    await expect.poll(() => rows().count()).toBe(4);

    // Sorting is in the URL too.
    await page.getByRole("button", { name: "mean attempts" }).click();
    await page.waitForURL(/sort=mean_attempts/);
    await expect.poll(async () => (await rows().first().innerText()).startsWith(SCRIPT_TOOL)).toBe(true);
  });

  it("Tools: the environment filter and the name search narrow the table, and the pager says how many matched", async () => {
    await page.goto(server.at(`/tools?${WINDOW}`));
    const rows = () => page.locator("[data-testid=tools-table] tbody tr[data-tool]");
    expect(await page.locator(".table-pager .sub").innerText()).toBe("4 tools");
    // Each value with its attempts in the window (issue 32): 10 in prod, 3 in staging.
    expect(await page.locator("select[name=environment] option").allInnerTexts()).toEqual(["All", "prod (10)", "staging (3)"]);
    await page.locator("select[name=environment]").selectOption("staging");
    await page.waitForURL(/environment=staging/);
    await expect.poll(async () => (await rows().allInnerTexts()).map((t) => t.split("\t")[0])).toEqual(["lookup"]);
    await page.locator("select[name=environment]").selectOption("");
    await page.waitForURL((u) => !u.search.includes("environment="));
    await page.getByRole("searchbox", { name: "Search tools by name" }).fill("CANCEL");
    await page.waitForURL(/q=CANCEL/);
    await expect.poll(() => rows().count()).toBe(1);
    expect(await page.locator(".table-pager .sub").innerText()).toBe("1 tool");
    expect(pageErrors).toEqual([]);
  });

  it("Tool detail: encoded name, per-code delays and runs links", async () => {
    await page.goto(server.at(`/tools/${encodeURIComponent(SCRIPT_TOOL)}?${WINDOW}`));
    expect(await text("tool-name")).toBe(SCRIPT_TOOL);
    expect(await text("tile-calls")).toMatch(/2\s+4 attempts/);
    expect(await text("tile-attempts")).toMatch(/2\.00\s+max 3 · 50\.0% needed a retry/);
    expect(await text("delays-by-code")).toMatch(/1 s \(2\)\s+3 s \(2\)/);
    const run = page.locator("[data-testid=recent-runs] a", { hasText: "run-3" });
    expect(await run.getAttribute("href")).toBe("/runs/run-3");
    await page.waitForSelector(".recharts-bar-rectangle");
    await page.screenshot({ path: "test-results/dashboard-tool.png", fullPage: true });

    await page.goto(server.at(`/tools/cancel_booking?${WINDOW}`));
    expect(await text("delays-by-code")).toMatch(/upstream_unavailable\s+30 min \(2\)\s+30 s \(1\)\s+1/);
    expect(pageErrors).toEqual([]);
  });

  it("Codes: marks a code with two meanings, and the code page shows its history", async () => {
    await page.goto(server.at(`/codes?${WINDOW}`));
    const row = page.locator("[data-testid=codes-table] tr[data-code=upstream_unavailable]");
    expect(await row.getByTestId("two-meanings").count()).toBe(1);
    expect(await row.innerText()).toContain("ToolFailure, ToolTimedOutError");
    expect(await page.locator(`[data-testid=codes-table] tr[data-code="${MARKUP_CODE}"] [data-testid=two-meanings]`).count()).toBe(0);
    await page.goto(server.at(`/codes/${encodeURIComponent(MARKUP_CODE)}?${WINDOW}`));
    expect(await text("code-name")).toBe(MARKUP_CODE);
    expect(await text("meanings")).toContain(SCRIPT_TOOL);
    expect(pageErrors).toEqual([]);
  });

  it("an empty project shows the first-run guide with the key prefix, never a key", async () => {
    const empty = emptyProjectOf(server.project);
    await page.goto(server.at(`/?project=${empty}`));
    const guide = await text("first-run-guide");
    expect(guide).toContain(`No tool calls in project “${empty}” yet`);
    expect(guide).toContain("npm run keys -- create");
    expect(guide).toContain("npm run demo");
    expect(guide).toContain("/api/v1/ingest");
    await page.goto(server.at("/"));
    expect(await page.getByTestId("first-run-guide").count()).toBe(0);
    const html = await page.content();
    expect(html).not.toContain(server.key);
    // The guide's curl origin is read after hydration (it was React #418 on any port but 3000).
    expect(pageErrors.splice(0)).toEqual([]);
  });
});
