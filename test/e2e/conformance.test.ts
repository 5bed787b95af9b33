import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 3_600_000;
const span = (id: string, over: Partial<SpanRow>): SpanRow => ({
  spanId: id, traceId: null, parentSpanId: null, runId: "run-1", callId: `call-${id}`, tool: "search", toolVersion: null,
  release: "1.0.0", service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: T, endedAt: T + 10,
  outcome: "ok", code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null,
  abandoned: null, message: null, derived: null, source: "native", ...over,
});

// native: 4 spans, one of the two failures without a code. otlp: 3 spans without attempt numbers,
// one without an outcome, two without a release, its one failure without a code.
async function seed(store: Store, project: string): Promise<void> {
  const batch = emptyRowBatch();
  [
    span("n1", {}),
    span("n2", {}),
    span("n3", { outcome: "failed", code: "upstream_unavailable" }),
    span("n4", { outcome: "failed" }),
    span("o1", { source: "otlp", attempt: null, outcome: null, release: null }),
    span("o2", { source: "otlp", attempt: null, release: null }),
    span("o3", { source: "otlp", attempt: null, outcome: "failed" }),
  ].forEach((row, index) => batch.spans.push({ index, row }));
  await writeRows(store, project, batch);
}

// The session fails the test on a script error or a dialog.
const session = useBrowserSession({ seed, viewport: { width: 1200, height: 800 } });

describe("the conformance page in Chromium", () => {
  it("shows, per input format, exactly what the tool spans lack", async () => {
    const page = session.page();
    await page.goto(session.server().at("/conformance"));
    await page.locator("tbody tr").first().waitFor();
    const rows = await page.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())),
    );
    expect(rows).toEqual([
      ["Faultline runtime (native)native", "4", "0%0 of 4", "50%1 of 2", "0%0 of 4", "0%0 of 4"],
      ["OTLP tracesotlp", "3", "33.3%1 of 3", "100%1 of 1", "100%3 of 3", "66.7%2 of 3"],
    ]);
    await page.screenshot({ path: "test-results/conformance.png", fullPage: true });
  });
});
