// The SQL behind each rule kind, on both engines, with rows written by the real ingest path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { loadAlertFacts } from "@/db/alerts/facts";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;
let seq = 0;
const span = (tool: string, minutesAgo: number, over: Partial<SpanRow> = {}): SpanRow => {
  const n = ++seq;
  const at = NOW - minutesAgo * MIN;
  return {
    spanId: `s${n}`, traceId: null, parentSpanId: null, runId: "run-1", callId: `call-${n}`, tool, toolVersion: null, release: "1.0.0",
    service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "ok",
    code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null,
    message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
  };
};

describe.each(DIALECTS)("alert facts on %s", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    const rows: SpanRow[] = [
      // lookup, last 10 min: call A retried once then ok; call B failed for good; call C refused; call D failed closed.
      span("lookup", 5, { callId: "A", outcome: "failed", code: "upstream_timeout", decision: "retried" }),
      span("lookup", 4, { callId: "A", attempt: 2 }),
      span("lookup", 3, { callId: "B", outcome: "failed", code: "upstream_timeout", decision: "surfaced" }),
      span("lookup", 2, { callId: "C", outcome: "refused", code: "not_allowed", decision: "surfaced" }),
      span("lookup", 1, { callId: "D", outcome: "failed", code: "slow_down", decision: "failed_closed", retryAfterMs: 900_000 }),
      // lookup, the window before: one decline. Older than both windows: not counted.
      span("lookup", 15, { outcome: "declined", code: "no", decision: "surfaced" }),
      span("lookup", 25, { outcome: "refused", code: "not_allowed", decision: "surfaced" }),
      // search: two ok calls, one in the future of NOW (not counted).
      span("search", 9),
      span("search", -1),
    ];
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("counts calls, failed calls, retries, refusals (now and before) and failed-closed attempts per tool", async () => {
    const facts = await loadAlertFacts(store, "p", { kind: "failure_rate", windowMinutes: 10, threshold: 0.5, minCalls: 1 }, 0, NOW);
    expect(facts.tools).toEqual([
      { tool: "lookup", calls: 4, failedCalls: 3, retries: 1, refusals: 1, previousRefusals: 1, failedClosed: 1 },
      { tool: "search", calls: 1, failedCalls: 0, retries: 0, refusals: 0, previousRefusals: 0, failedClosed: 0 },
    ]);
  });

  it("lists codes first seen since the rule was created", async () => {
    const all = await loadAlertFacts(store, "p", { kind: "new_code" }, 0, NOW);
    expect(all.newCodes.map((c) => [c.tool, c.code])).toEqual([
      ["lookup", "no"],
      ["lookup", "not_allowed"],
      ["lookup", "slow_down"],
      ["lookup", "upstream_timeout"],
    ]);
    const recent = await loadAlertFacts(store, "p", { kind: "new_code" }, NOW - 3 * MIN, NOW);
    expect(recent.newCodes).toEqual([{ tool: "lookup", code: "slow_down", firstSeen: NOW - MIN }]);
  });
});
