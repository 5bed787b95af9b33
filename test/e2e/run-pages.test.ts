import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import type { SpanRow } from "@/lib/ingest/rows";
import { useBrowserSession } from "../helpers/browser-session";

const CALLS = 600;
// Within the last day: the server's retention job would delete an older run.
const T = Date.now() - 3_600_000;

/** A run of 600 calls, each failed once and retried (1,200 attempts): a first page of 1,000 attempts, then 200. */
async function seedLongRun(store: Store, project: string): Promise<void> {
  const spans: SpanRow[] = [];
  for (let c = 0; c < CALLS; c++) {
    const tool = c % 2 === 0 ? "search_flights" : "lookup_customer";
    for (const attempt of [1, 2]) {
      const at = T + c * 1000 + (attempt - 1) * 300;
      spans.push({
        spanId: `long-${c}-${attempt}`, traceId: null, parentSpanId: null, runId: "run-long", callId: `c${c}`, tool, toolVersion: null,
        release: "2026.11.3", service: "support-agent", environment: "prod", sdkName: "faultline-runtime", sdkVersion: "0.1.0", attempt,
        startedAt: at, startedSubNs: null, endedAt: at + 100, outcome: attempt === 1 ? "failed" : "ok", code: attempt === 1 ? "upstream_unavailable" : null,
        errorClass: attempt === 1 ? "ToolFailure" : null, retryable: attempt === 1 ? true : null, retryAfterMs: null, backoffMs: attempt === 1 ? 200 : null,
        decision: attempt === 1 ? "retried" : null, permitted: true, abandoned: false, message: null, derived: null, argsHash: null, afterError: null, source: "native",
      });
    }
  }
  // And a run of one call, which fits its first page.
  spans.push({ ...spans[0]!, spanId: "short-1", runId: "run-short", callId: "s1" });
  await writeRows(store, project, { runs: [], spans: spans.map((row, index) => ({ index, row })), toolErrors: [] }, Date.now());
}

const session = useBrowserSession({ seed: seedLongRun, viewport: { width: 1400, height: 900 } });
const page = () => session.page();
const shown = () => page().getByTestId("run-pager-shown");
const budgets = () => page().locator('[data-testid="budget"]').allInnerTexts();

describe("run page of a run longer than a page", () => {
  it("shows the first 1,000 attempts, says how many calls of how many, and loads the rest on a click", async () => {
    await page().goto(session.server().at("/runs/run-long"));
    await shown().waitFor();
    expect(await shown().innerText()).toBe(
      "Showing 500 of 600 calls (1,000 of 1,200 attempts); the chart, budgets and told steps cover the calls shown.",
    );
    // The run's facts count all of it, loaded or not.
    expect(await page().locator("dl").first().innerText()).toContain("600 calls / 1,200 attempts");
    expect((await budgets()).map((b) => b.split("\n")[0])).toEqual(["search_flights 250 / 12 (assumed)", "lookup_customer 250 / 12 (assumed)"]);

    await page().getByRole("button", { name: "Load 200 more attempts" }).click();
    await expect.poll(() => shown().getAttribute("data-calls"), { timeout: 15_000 }).toBe("600");
    expect(await shown().innerText()).toBe("All 600 calls (1,200 attempts) of the run are shown.");
    expect(await shown().getAttribute("data-attempts")).toBe("1200");
    expect(await page().getByRole("button", { name: /more attempts/ }).count()).toBe(0);
    // The lanes and budgets now cover the second page's calls too.
    expect((await budgets()).map((b) => b.split("\n")[0])).toEqual(["search_flights 300 / 12 (assumed)", "lookup_customer 300 / 12 (assumed)"]);
    expect(await page().locator("dl").first().innerText()).toContain("600 calls / 1,200 attempts");
  });

  it("shows no pager for a run that fits one page", async () => {
    await page().goto(session.server().at("/runs/run-short"));
    await page().locator('[data-testid="call-lane"]').first().waitFor();
    expect(await page().locator("dl").first().innerText()).toContain("1 call / 1 attempt");
    expect(await page().getByTestId("run-pager").count()).toBe(0);
  });
});
