import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import type { RunRow, SpanRow } from "@/lib/ingest/rows";
import { runRow, spanRow } from "../helpers/rows";

/** 2026-11-02T08:00:00Z: a fixed clock for the sort, preset, suggestion and timeline-fit fixture. */
export const T = Date.UTC(2026, 10, 2, 8, 0, 0);

export function span(runId: string, callId: string, tool: string, attempt: number, from: number, to: number, over: Partial<SpanRow> = {}): SpanRow {
  const base = { traceId: "trace-a", release: "r1", service: "agent-a" };
  return spanRow({ spanId: `${runId}-${callId}-a${attempt}`, runId, callId, tool, attempt, startedAt: T + from, endedAt: T + to, ...base, ...over });
}

export function run(runId: string, over: Partial<RunRow>): RunRow {
  return runRow({ runId, agent: "agent-a", release: "r1", service: "agent-a", startedAt: T, endedAt: T + 1000, state: "completed", ...over });
}

const fail = (code: string, over: Partial<SpanRow> = {}): Partial<SpanRow> => ({ outcome: "failed", code, errorClass: "ToolFailure", retryable: true, decision: "retried", ...over });

/**
 * Five runs, one minute apart, whose orders differ per column:
 * - run-a1 (T):        1 call, 1 attempt ok, 1 s, completed
 * - run-a2 (T+1 min):  `short-far-deadline`: 4 attempts of one call within 4 s, retry_after on #2,
 *                      deadline 10 min after the start; 3 retries, 3 attempts not ok, 4 s
 * - run-a3 (T+2 min):  2 calls, 2 attempts, one `rate_limited`; 60 s, failed
 * - run-a4 (T+3 min):  1 call, 2 attempts (1 retry, code `rate_limit_soft`), 2 s
 * - run-a5 (T+4 min):  no run record, 1 attempt; duration from its attempt: 300 ms
 */
export async function seedRunsA(store: Store, project: string): Promise<void> {
  const m = 60_000;
  const runs = [
    run("run-a1", { startedAt: T, endedAt: T + 1000 }),
    run("run-a2", { startedAt: T + m, endedAt: T + m + 4000, state: "failed", deadlineAt: T + m + 600_000, agent: "agent-b", release: "r2" }),
    run("run-a3", { startedAt: T + 2 * m, endedAt: T + 2 * m + 60_000, state: "failed", release: "r2" }),
    run("run-a4", { startedAt: T + 3 * m, endedAt: T + 3 * m + 2000 }),
  ];
  const spans = [
    span("run-a1", "c1", "lookup", 1, 100, 400),
    span("run-a2", "c1", "search_flights", 1, 100, 600, fail("upstream_unavailable", { retryAfterMs: 500, backoffMs: 500 })),
    span("run-a2", "c1", "search_flights", 2, 1100, 1600, fail("upstream_unavailable", { retryAfterMs: 700, backoffMs: 800 })),
    span("run-a2", "c1", "search_flights", 3, 2400, 2900, fail("upstream_unavailable", { outcome: "timed_out", errorClass: "ToolTimedOutError", backoffMs: 400 })),
    span("run-a2", "c1", "search_flights", 4, 3300, 3900),
  ].map((s) => ({ ...s, startedAt: s.startedAt + m, endedAt: s.endedAt + m }));
  const more = [
    span("run-a3", "c1", "charge_card", 1, 2 * m + 100, 2 * m + 300, fail("rate_limited", { decision: "surfaced" })),
    span("run-a3", "c2", "lookup", 1, 2 * m + 400, 2 * m + 500),
    span("run-a4", "c1", "charge_card", 1, 3 * m + 100, 3 * m + 300, fail("rate_limit_soft")),
    span("run-a4", "c1", "charge_card", 2, 3 * m + 800, 3 * m + 900),
    span("run-a5", "c1", "lookup", 1, 4 * m + 100, 4 * m + 400, { runId: "run-a5" }),
  ];
  await writeRows(store, project, {
    runs: runs.map((row, index) => ({ index, row })),
    spans: [...spans, ...more].map((row, index) => ({ index, row })),
    toolErrors: [],
  }, T + 10 * m);
}
