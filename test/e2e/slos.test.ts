// The SLO page in Chromium: an SLO made in the typed form (a bad objective is refused next to its
// field), then its budget left, burn rates and the failures that spent it; axe clean light and dark.
import type { BrowserContext } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { writeRows } from "@/db/ingest/write-rows";
import { createSlo } from "@/db/slos/slos";
import type { Store } from "@/db/client";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { seriousViolations } from "../helpers/axe";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 2 * 3_600_000;
const span = (i: number, failed: boolean): SpanRow => ({
  spanId: `slo-${i}`, traceId: null, parentSpanId: null, runId: failed ? "run-bad" : `run-${i}`, callId: `call-${i}`, tool: "search_web", toolVersion: null,
  release: "1.0.0", service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: T + i * 1000, startedSubNs: null, endedAt: T + i * 1000 + 10,
  outcome: failed ? "failed" : "ok", code: failed ? "upstream_unavailable" : null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null,
  decision: failed ? "surfaced" : null, permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
});

// 20 calls of search_web two hours ago, one failed with nothing after it.
async function seed(store: Store, project: string): Promise<void> {
  const batch = emptyRowBatch();
  Array.from({ length: 20 }, (_, i) => span(i, i === 7)).forEach((row, index) => batch.spans.push({ index, row }));
  await writeRows(store, project, batch);
}

const session = useBrowserSession({ seed, viewport: { width: 1400, height: 900 } });

let axeContext: BrowserContext | undefined;
afterEach(async () => {
  await axeContext?.close();
  axeContext = undefined;
});

describe("the SLO page in Chromium", () => {
  it("creates an SLO from the form and shows its budget, burn rates and the failures that spent it", async () => {
    const page = session.page();
    const server = session.server();
    await page.goto(server.at("/slos"));
    await page.getByText("No SLO yet.").waitFor();
    expect(await page.locator('nav a[href^="/slos"]').count()).toBeGreaterThan(0);

    const form = page.locator('form[aria-label="New SLO"]');
    await form.getByLabel("Name", { exact: true }).fill("Search answers");
    await form.getByLabel(/^Tools/).fill("search_*");
    await form.getByLabel(/^Objective/).fill("100");
    await form.getByRole("button", { name: "Create SLO" }).click();
    await form.getByText("a percentage between 0 and 100 (exclusive), e.g. 99.5").waitFor();

    await form.getByLabel(/^Objective/).fill("90");
    await form.getByRole("button", { name: "Create SLO" }).click();
    const row = page.locator('table[aria-label="SLOs"] tbody tr', { hasText: "Search answers" });
    await row.waitFor();
    const cells = () => row.locator("td").evaluateAll((tds) => tds.slice(0, 7).map((td) => (td.textContent ?? "").trim()));
    // 2 bad calls allowed (10 % of 20), 1 spent; a 0.5× burn over 6 h, no call in the shorter windows.
    await expect.poll(cells).toEqual(["Search answers", "search_*", "90% over 28 d", "50%", "no calls / no calls", "0.5× / no calls", "within budget"]);
    // The form starts empty again.
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("");

    await row.getByRole("link", { name: "Search answers" }).click();
    const detail = page.locator('section[aria-labelledby="slo-detail-title"]');
    await detail.getByRole("heading", { name: "SLO Search answers" }).waitFor();
    const figures = () => detail.locator('dl[aria-label="Budget"] > div').evaluateAll((divs) => divs.map((d) => [d.querySelector("dt")?.textContent, d.querySelector("dd")?.textContent]));
    await expect.poll(figures).toEqual([
      ["Budget left", "50%"],
      ["Good calls", "95%"],
      ["Calls", "20"],
      ["Bad calls", "1"],
      ["Declines left out", "0"],
      ["Recovered failures left out", "0"],
      ["State", "within budget"],
    ]);
    await detail.locator('[role="figure"][aria-label="Error budget left over the window"] .recharts-area').waitFor();
    expect(await detail.getByRole("link", { name: "upstream_unavailable" }).count()).toBe(1);
    expect(await detail.getByRole("link", { name: "run-bad" }).getAttribute("href")).toMatch(/^\/runs\/run-bad\?project=/);

    // Edit: the objective moves the budget.
    await row.getByRole("button", { name: "Edit Search answers" }).click();
    const edit = page.locator('form[aria-label="Edit SLO Search answers"]');
    await edit.getByLabel(/^Objective/).fill("80");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect.poll(cells).toEqual(["Search answers", "search_*", "80% over 28 d", "75%", "no calls / no calls", "0.25× / no calls", "within budget"]);

    // Its burn-rate rule is on the Alerts page, named for the SLO; editing it shows the SLO chosen.
    await page.goto(server.at("/alerts"));
    const rule = page.locator('table[aria-label="Alert rules"] tbody tr', { hasText: "SLO Search answers: burn rate" });
    await expect.poll(() => rule.locator("td").nth(1).textContent()).toBe(
      "an SLO burn rate of 14.4× or more over both 1 h and 5 min (page), or 6× or more over both 6 h and 30 min (ticket), for SLO “Search answers”",
    );
    await rule.getByRole("button", { name: "Edit" }).click();
    const ruleForm = page.locator('form[aria-label="Edit rule SLO Search answers: burn rate"]');
    expect(await ruleForm.getByLabel("Kind").inputValue()).toBe("slo_burn");
    await expect.poll(() => ruleForm.getByLabel(/^SLO/).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe("Search answers");
  });

  it("has no serious or critical axe violation on the SLO page with an SLO open, light and dark", async () => {
    const server = session.server();
    const { slo } = await createSlo(server.store, { project: server.project, name: "Axe", tools: ["search_web"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null }, Date.now());
    const id = slo.id;
    const found: Record<string, string[]> = {};
    for (const scheme of ["light", "dark"] as const) {
      axeContext = await session.context().browser()!.newContext({ bypassCSP: true, colorScheme: scheme, viewport: { width: 1400, height: 1000 } });
      const page = await axeContext.newPage();
      await page.goto(server.at(`/slos?slo=${id}`));
      await page.locator('[role="figure"][aria-label="Error budget left over the window"] .recharts-area').waitFor();
      const bad = await seriousViolations(page);
      if (bad.length > 0) found[scheme] = bad;
      await axeContext.close();
      axeContext = undefined;
    }
    expect(found).toEqual({});
  }, 120_000);
});
