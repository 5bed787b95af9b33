import { describe, expect, it } from "vitest";
import type { AttemptTuple, RunTimeline, TimelineCall } from "@/lib/contracts/runs";
import { layoutTimeline, LANE_HEIGHT } from "@/lib/charts/timeline-layout";

const T = 1_700_000_000_000;
type Over = { outcome?: string | null; retryAfter?: number | null; backoff?: number | null; decision?: string | null };
// Readable attempts (strings inline, times in ms after T); `lay` encodes them the way the API does.
type Readable = [string, number | null, number, number, string | null, number | null, number | null, string | null];
const at = (id: string, n: number | null, from: number, to: number, o: Over = {}): Readable => [
  id, n, from, to, o.outcome === undefined ? "ok" : o.outcome, o.retryAfter ?? null, o.backoff ?? null, o.decision ?? null,
];
const fail = (o: Over = {}): Over => ({ outcome: "failed", decision: "retried", ...o });
type ReadableCall = { callId: string; tool: string; attempts: Readable[]; error: TimelineCall["error"] };
const call = (callId: string, tool: string, attempts: Readable[], error: TimelineCall["error"] = null): ReadableCall => ({ callId, tool, attempts, error });
function lay(input: { runId: string; run: RunTimeline["run"]; calls: ReadableCall[] }) {
  const strings: string[] = [];
  const intern = (v: string | null) => (v === null ? null : strings.includes(v) ? strings.indexOf(v) : strings.push(v) - 1);
  const calls = input.calls.map((c) => ({
    ...c,
    attempts: c.attempts.map(([id, n, from, to, outcome, retryAfter, backoff, decision]): AttemptTuple => [
      id, n, from, to, intern(outcome), null, null, null, retryAfter, backoff, intern(decision), null, null,
    ]),
  }));
  return layoutTimeline({ runId: input.runId, run: input.run, t0: T, strings, calls, toldSteps: [], codedBy: {} });
}
const run = (over: Partial<NonNullable<RunTimeline["run"]>> = {}): NonNullable<RunTimeline["run"]> => ({
  agent: "a", release: null, service: null, environment: null, sdkName: null, sdkVersion: null,
  startedAt: T, endedAt: T + 10_000, state: "completed", deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, ...over,
});
const finalError = (decision: string): NonNullable<TimelineCall["error"]> => ({
  code: "x", errorClass: "ToolFailure", retryable: true, attempts: 1, decision, told: "told", occurredAt: T, source: "native", derived: [],
});

describe("layoutTimeline", () => {
  it("groups calls by tool in start order, one fixed-height lane each, parallel calls overlapping", () => {
    const layout = lay({
      runId: "r",
      run: run({ deadlineAt: T + 12_000 }),
      calls: [
        call("b1", "beta", [at("s3", 1, 500, 900)]),
        call("a1", "alpha", [at("s1", 1, 100, 600)]),
        call("a2", "alpha", [at("s2", 1, 200, 700)]),
      ],
    });
    expect(layout.rows.map((r) => [r.kind, r.index, r.y, r.kind === "call" ? r.callId : r.tool])).toEqual([
      ["tool", 0, 0, "alpha"],
      ["call", 1, LANE_HEIGHT, "a1"],
      ["call", 2, 2 * LANE_HEIGHT, "a2"],
      ["tool", 3, 3 * LANE_HEIGHT, "beta"],
      ["call", 4, 4 * LANE_HEIGHT, "b1"],
    ]);
    expect(layout.height).toBe(5 * LANE_HEIGHT);
    const bars = layout.rows.flatMap((r) => (r.kind === "call" ? r.bars.map((b) => [b.spanId, b.start, b.end, b.label, b.flags]) : []));
    expect(bars).toEqual([
      ["s1", 100, 600, "#1 ok", []],
      ["s2", 200, 700, "#1 ok", []],
      ["s3", 500, 900, "#1 ok", []],
    ]);
    expect(layout).toMatchObject({ origin: T, domain: { start: 0, end: 12_000 }, runEnd: 10_000, deadline: 12_000, runRecordMissing: false });
  });

  it("draws the backoff gap with the retry_after asked next to the wait that happened", () => {
    const layout = lay({
      runId: "r",
      run: run(),
      calls: [call("c", "t", [at("s1", 1, 0, 300, fail({ retryAfter: 1000, backoff: 1200 })), at("s2", 2, 1500, 1700)])],
    });
    const row = layout.rows[1]!;
    expect(row.kind === "call" && row.gaps).toEqual([{ from: 300, to: 1500, waitedMs: 1200, backoffMs: 1200, retryAfterMs: 1000, retryAfterAt: 1300 }]);
    expect(row.kind === "call" && row.final).toEqual({ kind: "succeeded_after_retries", label: "succeeded after 1 retry", source: "derived" });
    expect(layout.failing).toEqual([{ row: 1, bar: 0 }]);
  });

  it("takes the final decision from the tool error, else the last span, else the outcomes", () => {
    const layout = lay({
      runId: "r",
      run: run(),
      calls: [
        call("e", "t", [at("e1", 1, 0, 10, fail({ decision: "surfaced" }))], finalError("delivered")),
        call("s", "t", [at("s1", 1, 20, 30, fail({ decision: "failed_closed", retryAfter: 600_000 }))]),
        call("r", "t", [at("r1", 1, 40, 50, fail())]),
        call("n", "t", [at("n1", 1, 60, 70, { outcome: "declined" })]),
        call("u", "t", [at("u1", 1, 80, 90, { outcome: null })]),
        call("k", "t", [at("k1", 1, 100, 110)]),
        call("x", "t", [], finalError("cancelled")),
      ],
    });
    const finals = layout.rows.flatMap((r) => (r.kind === "call" ? [[r.callId, r.final.label, r.final.source]] : []));
    expect(finals).toEqual([
      ["e", "delivered as a refusal", "tool_error"],
      ["x", "cancelled", "tool_error"],
      ["s", "failed closed", "span"],
      ["r", "retried; next attempt not recorded", "span"],
      ["n", "declined; no decision recorded", "derived"],
      ["u", "outcome unknown", "derived"],
      ["k", "ok", "derived"],
    ]);
    const s = layout.rows.find((r) => r.kind === "call" && r.callId === "s");
    // A retry_after on the last attempt is reported on the lane, not allowed to stretch the axis.
    expect(s?.kind === "call" && s.lastRetryAfterMs).toBe(600_000);
    expect(layout.domain).toEqual({ start: 0, end: 10_000 });
  });

  it("counts retries per tool against the run's budget, assuming 12 when unknown", () => {
    const calls = [
      call("a", "t", [at("a1", 1, 0, 10, fail()), at("a2", 2, 20, 30)]),
      call("b", "t", [at("b1", 1, 40, 50, fail()), at("b3", 3, 60, 70)]),
      call("c", "u", [at("c1", 1, 0, 10)]),
    ];
    expect(lay({ runId: "r", run: run({ maxToolAttempts: 3 }), calls }).budgets).toEqual([
      { tool: "t", retriesUsed: 3, budget: 3, assumed: false },
      { tool: "u", retriesUsed: 0, budget: 3, assumed: false },
    ]);
    expect(lay({ runId: "r", run: null, calls }).budgets).toEqual([
      { tool: "t", retriesUsed: 3, budget: 12, assumed: true },
      { tool: "u", retriesUsed: 0, budget: 12, assumed: true },
    ]);
  });

  it("marks incomplete data instead of tidying it: gaps in numbering, unknown numbers, disagreeing clocks", () => {
    const layout = lay({
      runId: "r",
      run: run({ endedAt: T + 1000 }),
      calls: [
        call("c", "t", [
          at("s3", 3, 300, 250, fail()),
          at("s1", 1, -200, 400, fail({ backoff: 100 })),
          at("sx", null, 1500, 1600),
          at("s3b", 3, 700, 800, fail()),
        ]),
      ],
    });
    const row = layout.rows[1]!;
    if (row.kind !== "call") throw new Error("expected a call lane");
    expect(row.bars.map((b) => [b.spanId, b.tupleIndex, b.label, b.start, b.end, b.flags])).toEqual([
      ["s1", 1, "#1 failed", -200, 400, ["before_run_start"]],
      ["s3", 0, "#3 failed", 300, 250, ["missing_before", "ends_before_start", "starts_before_previous_end"]],
      ["s3b", 3, "#3 failed", 700, 800, ["attempt_duplicate"]],
      ["sx", 2, "#? ok", 1500, 1600, ["attempt_unknown", "after_run_end"]],
    ]);
    expect(row.missingAttempts).toEqual([[2, 2]]);
    expect(row.gaps.map((g) => g.waitedMs)).toEqual([-100, 450, 700]);
    expect(row.retries).toBe(3);
    expect(layout.domain).toEqual({ start: -200, end: 1600 });
    expect(layout.incomplete).toEqual({ attempts: 4, calls: 1 });
    expect(layout.failing).toEqual([{ row: 1, bar: 0 }, { row: 1, bar: 1 }, { row: 1, bar: 2 }]);
  });

  it("measures from the run's start even when the first attempt came later", () => {
    const layout = lay({ runId: "r", run: run({ startedAt: T - 1500 }), calls: [call("c", "t", [at("s1", 1, 0, 400)])] });
    const row = layout.rows[1]!;
    expect(row.kind === "call" && row.bars.map((b) => [b.start, b.end, b.startedAt])).toEqual([[1500, 1900, T]]);
    expect(layout.origin).toBe(T - 1500);
  });

  it("puts time 0 at the earliest attempt when the run record never arrived", () => {
    const layout = lay({ runId: "r", run: null, calls: [call("c", "t", [at("s1", 1, 5000, 5400)])] });
    expect(layout).toMatchObject({ origin: T + 5000, domain: { start: 0, end: 400 }, runRecordMissing: true, runEnd: null, deadline: null });
  });

  it("puts time 0 at the earliest attempt, else at the run's end, when the record's start is unknown", () => {
    const withSpans = lay({ runId: "r", run: run({ agent: null, startedAt: null, endedAt: T + 9000 }), calls: [call("c", "t", [at("s1", 1, 5000, 5400)])] });
    expect(withSpans).toMatchObject({ origin: T + 5000, domain: { start: 0, end: 4000 }, runRecordMissing: false, runEnd: 4000 });
    const endOnly = lay({ runId: "r", run: run({ agent: null, startedAt: null, endedAt: T + 9000 }), calls: [] });
    expect(endOnly).toMatchObject({ origin: T + 9000, runRecordMissing: false, runEnd: 0 });
  });
});
