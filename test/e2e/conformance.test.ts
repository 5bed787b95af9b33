import { describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { useBrowserSession } from "../helpers/browser-session";

const T = Date.now() - 3_600_000;
const span = (id: string, over: Partial<SpanRow>): SpanRow => ({
  spanId: id, traceId: null, parentSpanId: null, runId: "run-1", callId: `call-${id}`, tool: "search", toolVersion: null,
  release: "1.0.0", service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: T, startedSubNs: null, endedAt: T + 10,
  outcome: "ok", code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null,
  abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
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
    // A native batch from the Python SDK (resource.sdk.name faultline-python): an emitter of its own.
    span("p1", { service: "py-agent", sdkName: "faultline-python", emitter: { service: "py-agent", convention: "native_python" } }),
  ].forEach((row, index) => batch.spans.push({ index, row }));
  // Two spans of a Traceloop emitter that had no tool name: nothing stored, both counted.
  const drop = { emitter: { service: "agent", convention: "traceloop" }, reason: "no_tool_name", attribute: "traceloop.entity.name", at: T };
  batch.drops = [drop, drop];
  await writeRows(store, project, batch);
}

// The session fails the test on a script error or a dialog.
const session = useBrowserSession({ seed, viewport: { width: 1200, height: 800 } });

describe("the conformance page in Chromium", () => {
  it("shows, per input format, exactly what the tool spans lack", async () => {
    const page = session.page();
    await page.goto(session.server().at("/conformance"));
    await page.locator("tbody tr").first().waitFor();
    const cells = (table: number) =>
      page
        .locator("table")
        .nth(table)
        .locator("tbody tr")
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())));
    const rows = await cells(0);
    expect(rows).toEqual([
      ["Faultline runtime (native)native", "5", "0%0 of 5", "50%1 of 2", "0%0 of 5", "0%0 of 5"],
      ["OTLP tracesotlp", "3", "33.3%1 of 3", "100%1 of 1", "100%3 of 3", "66.7%2 of 3"],
    ]);
    // Per emitter: each field sent, derived or missing (the missing counts are the table above's), and
    // what was dropped and why.
    const none = "—0 spans";
    expect(await cells(1)).toEqual([
      ["agentFaultline runtime (native)", "4", "sent 4of 4", "sent 4of 4", "sent 4of 4", "sent 4of 4", "sent 1missing 1of 2", "missing 2of 2", "missing 2of 2", "sent 4of 4", "none"],
      ["agentOTLP traces", "3", "sent 3of 3", "sent 3of 3", "missing 3of 3", "sent 2missing 1of 3", "missing 1of 1", "missing 1of 1", "missing 1of 1", "sent 1missing 2of 3", "none"],
      ["agentOpenLLMetry / Traceloop", "0", none, none, none, none, none, none, none, none, "2 no_tool_nameadd traceloop.entity.name (the tool's name)"],
      ["py-agentFaultline Python SDK (native)", "1", "sent 1of 1", "sent 1of 1", "sent 1of 1", "sent 1of 1", none, none, none, "sent 1of 1", "none"],
    ]);
    // What to send, only for what is missing, and where: the native records' own fields.
    const notes = await page.getByRole("list", { name: "Per emitter: derived fields and what to send" }).locator("li").first().locator(":scope > span").allInnerTexts();
    const where = "in each span record of the batch (docs/runtime.md, wire contract)";
    expect(notes).toEqual([
      "Faultline runtime (native)",
      `code missing on 1 of 2: add code — ${where}`,
      `error class missing on 2 of 2: add error_class — ${where}`,
      `message missing on 2 of 2: add message — ${where}`,
    ]);
    await page.screenshot({ path: "test-results/conformance.png", fullPage: true });
  });
});
