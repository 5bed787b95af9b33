import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { useBrowserSession } from "../helpers/browser-session";
import type { ProjectServer } from "../helpers/project";
import { Scenario, T0 } from "../unit/drift/scenario";

const DAY = 86_400_000;
// An absolute window around the seeded days, so the tables list them whatever today's date is.
const WINDOW = `from=${T0 - DAY}&to=${T0 + 7 * DAY}`;
const REPURPOSED_SENTENCE =
  "upstream_timeout on search was retryable, decision retried in 1.3.0 (40 calls) and is permanent, decision surfaced in 1.4.0 (38 calls): a repurposed code in a minor release, a SemVer violation; clients that retry upstream_timeout will now fail closed: treat it as permanent from 1.4.0 and surface it instead of retrying.";

/** upstream_timeout on search turns permanent in 1.4.0; quota_exceeded on weather means the same in both releases. */
async function seed(store: Store, project: string): Promise<void> {
  const s = new Scenario(project, store);
  const search = (v: string, day: number) => ({ tool: "search", toolVersion: v, day });
  const weather = (v: string, day: number) => ({ tool: "weather", toolVersion: v, day });
  s.failing(40, { ...search("1.3.0", 0), code: "upstream_timeout", retryable: true, decision: "retried" }).ok(60, search("1.3.0", 0));
  s.failing(38, { ...search("1.4.0", 3), code: "upstream_timeout", retryable: false, decision: "surfaced" }).ok(60, search("1.4.0", 3));
  s.failing(20, { ...weather("2.0.0", 0), code: "quota_exceeded", retryable: true, decision: "retried" }).ok(30, weather("2.0.0", 0));
  s.failing(20, { ...weather("2.1.0", 3), code: "quota_exceeded", retryable: true, decision: "retried" }).ok(30, weather("2.1.0", 3));
  await s.settled();
}

// The session waits for the seed's drift fold before the first test and fails a test on a script error.
const session = useBrowserSession({ seed, viewport: { width: 1400, height: 1000 } });
const { pageErrors } = session;
let server: ProjectServer;
let page: Page;
beforeEach(() => {
  server = session.server();
  page = session.page();
});

const badgeIn = (selector: string) => page.locator(`${selector} [data-testid="drift-badge"]`);
/** A badge's link: the drift page of this file's project, filtered. */
const driftHref = (filter: string) => `/drift?project=${server.project}&${filter}`;

describe("drift badges across the dashboard", () => {
  it("are in the server-rendered Codes page, so they do not pop in after load", async () => {
    // The seeded rows are folded by the server's background job; pages render what is folded.
    await server.driftFolded();
    const html = await (await fetch(server.at(`/codes?${WINDOW}`))).text();
    expect(html.match(/data-testid="drift-badge"/g)?.length).toBe(1);
    expect(html).toContain(`href="${driftHref("code=upstream_timeout").replace("&", "&amp;")}"`);
  });

  it("mark the affected code on the Codes table and not the unaffected one; the badge leads to its finding", async () => {
    await page.goto(server.at(`/codes?${WINDOW}`));
    await page.locator('[data-testid="codes-table"] tr[data-code="quota_exceeded"]').waitFor();
    const badge = badgeIn('tr[data-code="upstream_timeout"]');
    expect(await badge.innerText()).toBe("drift · critical");
    expect(await badge.getAttribute("aria-label")).toBe("drift · critical: 1 finding for code upstream_timeout");
    expect(await badge.getAttribute("href")).toBe(driftHref("code=upstream_timeout"));
    expect(await badgeIn('tr[data-code="quota_exceeded"]').count()).toBe(0);
    await page.screenshot({ path: "test-results/codes-drift-badge.png" });

    await page.getByRole("link", { name: "drift · critical: 1 finding for code upstream_timeout" }).click();
    await page.waitForURL((u) => u.pathname + u.search === driftHref("code=upstream_timeout"));
    const cards = page.locator('[data-testid="drift-finding"]');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    expect(await cards.first().getAttribute("data-kind")).toBe("repurposed");
    expect(await cards.first().locator("> p").innerText()).toBe(REPURPOSED_SENTENCE);
  });

  it("mark the affected tool on the Tools table, the Overview and the tool page, and not the unaffected tool", async () => {
    await page.goto(server.at(`/tools?${WINDOW}`));
    await page.locator('[data-testid="tools-table"] tr[data-tool="weather"]').waitFor();
    const badge = badgeIn('tr[data-tool="search"]');
    expect(await badge.getAttribute("aria-label")).toBe("drift · critical: 1 finding for tool search");
    expect(await badge.getAttribute("href")).toBe(driftHref("tool=search"));
    expect(await badgeIn('tr[data-tool="weather"]').count()).toBe(0);

    await page.goto(server.at(`/?${WINDOW}`));
    await page.getByTestId("top-codes").waitFor();
    expect(await badgeIn('[data-testid="top-codes"]').allInnerTexts()).toEqual(["drift · critical"]);
    expect(await badgeIn('[data-testid="top-tools"]').evaluateAll((els) => els.map((e) => e.getAttribute("href")))).toEqual([driftHref("tool=search")]);

    await page.goto(server.at(`/tools/search?${WINDOW}`));
    expect(await page.locator('.page-head [data-testid="drift-badge"]').getAttribute("href")).toBe(driftHref("tool=search"));
    await page.goto(server.at(`/tools/weather?${WINDOW}`));
    await page.getByTestId("tool-name").waitFor();
    expect(await page.locator('[data-testid="drift-badge"]').count()).toBe(0);
  });

  it("the code page shows the meaning by release with the change point and its sentence", async () => {
    await page.goto(server.at(`/codes/upstream_timeout?${WINDOW}`));
    expect(await page.locator('.page-head [data-testid="drift-badge"]').getAttribute("href")).toBe(driftHref("code=upstream_timeout"));
    const chart = page.getByTestId("release-chart-class");
    await chart.locator(".recharts-bar-rectangle").first().waitFor();
    await page.screenshot({ path: "test-results/code-page-drift.png", fullPage: true });
    // SVG text has no innerText: read textContent.
    expect(await chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-label").allTextContents()).toEqual(["1.3.0", "1.4.0"]);
    for (const id of ["release-chart-class", "release-chart-outcome"]) {
      const svg = page.getByTestId(id);
      expect(await svg.locator(".recharts-reference-line").count()).toBe(1);
      // recharts draws reference labels in their own layer, so the label is looked up by its text.
      expect(await svg.locator("text").filter({ hasText: /^1 · Repurposed$/ }).count()).toBe(1);
    }
    expect(await page.getByTestId("change-points").innerText()).toBe(`1 · Repurposed search · 1.3.0 → 1.4.0: ${REPURPOSED_SENTENCE} details →`);
    const rows = await page.locator('[data-testid="release-table"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)),
    );
    expect(rows).toEqual([
      ["1.3.0", "40", "100%", "0%", "—", ""],
      ["1.4.0", "38", "0%", "0%", "—", "1 · Repurposed (search)"],
    ]);

    await page.goto(server.at(`/codes/quota_exceeded?${WINDOW}`));
    await page.getByTestId("release-chart-class").locator(".recharts-bar-rectangle").first().waitFor();
    expect(await page.locator('[data-testid="drift-badge"]').count()).toBe(0);
    expect(await page.locator(".recharts-reference-line").count()).toBe(0);
    expect(await page.getByTestId("change-points").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
