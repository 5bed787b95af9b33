import { describe, expect, it } from "vitest";
import type { AttemptTuple, TimelineCall } from "@/lib/contracts/runs";
import { layoutCallAttempts, type BarContext } from "@/lib/charts/timeline-bars";
import { finalDecision } from "@/lib/charts/timeline-final";
import { callStart, timelineFrame } from "@/lib/charts/timeline-frame";
import { groupCallsByTool } from "@/lib/charts/timeline-lanes";
import { layoutTimeline } from "@/lib/charts/timeline-layout";
import { timelineMarkers } from "@/lib/charts/timeline-markers";
import { findSpan, stepFailing } from "@/lib/charts/timeline-navigation";
import { checkNumbering, orderAttempts } from "@/lib/charts/timeline-numbering";
import { failingOrder, incompleteCounts, timelineDomain, toolBudgets } from "@/lib/charts/timeline-summary";
import type { TimelineRow } from "@/lib/charts/timeline-types";
import { revealSpan } from "@/lib/charts/timeline-viewport";

const T = 1_700_000_000_000;
const STRINGS = ["ok", "failed", "retried"];
const OK = 0;
const FAILED = 1;
const RETRIED = 2;
/** An attempt tuple: span id, number, start and end in ms after t0, outcome and decision indexes. */
const at = (id: string, n: number | null, from: number, to: number, outcome: number | null = OK, extra: { retryAfter?: number; backoff?: number; decision?: number } = {}): AttemptTuple => [
  id, n, from, to, outcome, null, null, null, extra.retryAfter ?? null, extra.backoff ?? null, extra.decision ?? null, null, null,
];
const call = (callId: string, tool: string, attempts: AttemptTuple[], error: TimelineCall["error"] = null): TimelineCall => ({ callId, tool, attempts, error });
const run = { agent: "a", release: null, service: null, environment: null, sdkName: null, sdkVersion: null, startedAt: T, endedAt: T + 10_000, state: "completed", deadlineAt: T + 12_000, maxToolAttempts: 3, error: null, unansweredToolUses: null, traceId: null, spanId: null };
const str = (i: number | null) => (i === null ? null : (STRINGS[i] ?? null));

describe("timelineFrame", () => {
  it("puts time 0 at the run's start and its end and deadline after it", () => {
    expect(timelineFrame({ run, t0: T + 500 }, [T + 500])).toEqual({ origin: T, shift: 500, runEnd: 10_000, deadline: 12_000 });
  });

  it("falls back to the earliest call, then to the run's end, when the start is unknown", () => {
    expect(timelineFrame({ run: null, t0: T }, [T + 300, T + 100]).origin).toBe(T + 100);
    const endOnly = { ...run, startedAt: null, deadlineAt: null };
    expect(timelineFrame({ run: endOnly, t0: 0 }, [])).toEqual({ origin: T + 10_000, shift: -(T + 10_000), runEnd: 0, deadline: null });
  });

  it("starts a call at its earliest attempt, else at its final error", () => {
    expect(callStart(call("c", "t", [at("s2", 2, 900, 950), at("s1", 1, 100, 200)]), T)).toBe(T + 100);
    const errorOnly = call("c", "t", [], { code: "x", errorClass: null, retryable: null, attempts: null, decision: "surfaced", told: null, occurredAt: T + 7, source: "native", derived: [] });
    expect(callStart(errorOnly, T)).toBe(T + 7);
    expect(callStart(call("c", "t", []), T)).toBe(Infinity);
  });
});

describe("groupCallsByTool", () => {
  it("orders tools by their first call and calls by start, ties in answer order", () => {
    const calls = [{ tool: "b" }, { tool: "a" }, { tool: "b" }, { tool: "a" }];
    expect([...groupCallsByTool(calls, [50, 10, 5, 10])]).toEqual([["b", [2, 0]], ["a", [1, 3]]]);
  });
});

describe("attempt numbering", () => {
  it("orders known numbers first, then unnumbered attempts by start", () => {
    expect(orderAttempts([at("u2", null, 50, 60), at("n3", 3, 0, 1), at("u1", null, 10, 20), at("n1", 1, 99, 100)])).toEqual([3, 1, 2, 0]);
  });

  it("flags blanks, repeats and gaps, and reports the missing ranges", () => {
    expect(checkNumbering([1, 4, 4, null, 6])).toEqual({
      flags: [[], ["missing_before"], ["attempt_duplicate"], ["attempt_unknown"], ["missing_before"]],
      missing: [[2, 3], [5, 5]],
      maxKnown: 6,
    });
  });
});

describe("layoutCallAttempts", () => {
  const ctx: BarContext = { frame: { origin: T, shift: 0, runEnd: 1000, deadline: null }, t0: T, hasRunRecord: true, str };

  it("draws bars from the origin with the waits between them and the retries the numbering proves", () => {
    const out = layoutCallAttempts(call("c", "t", [at("s1", 1, 0, 100, FAILED, { retryAfter: 300, backoff: 250, decision: RETRIED }), at("s3", 3, 400, 500)]), ctx);
    expect(out.bars.map((b) => [b.spanId, b.tupleIndex, b.start, b.end, b.label, b.failing, b.flags])).toEqual([
      ["s1", 0, 0, 100, "#1 failed", true, []],
      ["s3", 1, 400, 500, "#3 ok", false, ["missing_before"]],
    ]);
    expect(out.gaps).toEqual([{ from: 100, to: 400, waitedMs: 300, backoffMs: 250, retryAfterMs: 300, retryAfterAt: 400 }]);
    expect(out.missingAttempts).toEqual([[2, 2]]);
    expect(out.retries).toBe(2);
    expect(out.lastRetryAfterMs).toBeNull();
  });

  it("flags clocks that disagree and attempts outside the run", () => {
    const out = layoutCallAttempts(call("c", "t", [at("s1", 1, -50, 300), at("s2", 2, 200, 150), at("s3", 3, 900, 1200)]), ctx);
    expect(out.bars.map((b) => b.flags)).toEqual([["before_run_start"], ["ends_before_start", "starts_before_previous_end"], ["after_run_end"]]);
  });

  it("does not call an attempt early when the run record never arrived", () => {
    const out = layoutCallAttempts(call("c", "t", [at("s1", 1, -50, 0)]), { ...ctx, hasRunRecord: false });
    expect(out.bars[0]!.flags).toEqual([]);
  });
});

describe("finalDecision", () => {
  const error = (decision: string | null): TimelineCall["error"] => ({ code: "x", errorClass: null, retryable: null, attempts: null, decision, told: null, occurredAt: T, source: "native", derived: [] });
  it("prefers the final tool error, then the last span, then the outcomes", () => {
    expect(finalDecision({ error: error("exhausted") }, [{ decision: "retried", outcome: "failed" }], 1).source).toBe("tool_error");
    expect(finalDecision({ error: null }, [{ decision: "retried", outcome: "failed" }], 0)).toEqual({ kind: "retried", label: "retried; next attempt not recorded", source: "span" });
    expect(finalDecision({ error: null }, [{ decision: null, outcome: "ok" }], 2)).toEqual({ kind: "succeeded_after_retries", label: "succeeded after 2 retries", source: "derived" });
    expect(finalDecision({ error: null }, [], 0)).toEqual({ kind: "unknown", label: "outcome unknown", source: "derived" });
  });
});

describe("summary steps", () => {
  const layout = layoutTimeline({
    runId: "r",
    t0: T,
    strings: STRINGS,
    run,
    toldSteps: [],
    codedBy: {},
    calls: [
      call("c1", "alpha", [at("s1", 1, 0, 100, FAILED, { retryAfter: 20_000 }), at("s2", 2, 200, 300, FAILED)]),
      call("c2", "beta", [at("s3", null, 50, 60, FAILED)]),
    ],
  });
  const rows: TimelineRow[] = layout.rows;

  it("spans the domain over time 0, the run's marks, the bars and the waited retry_after", () => {
    expect(timelineDomain(rows, { runEnd: 10_000, deadline: 12_000 })).toEqual({ start: 0, end: 20_100 });
  });

  it("orders failing attempts by time for j/k and steps through them, wrapping", () => {
    expect(failingOrder(rows)).toEqual([{ row: 1, bar: 0 }, { row: 3, bar: 0 }, { row: 1, bar: 1 }]);
    expect(stepFailing(layout, null, 1)).toEqual({ row: 1, bar: 0 });
    expect(stepFailing(layout, null, -1)).toEqual({ row: 1, bar: 1 });
    expect(stepFailing(layout, { row: 1, bar: 1 }, 1)).toEqual({ row: 1, bar: 0 });
    expect(stepFailing({ ...layout, failing: [] }, null, 1)).toBeNull();
  });

  it("counts budgets per tool and the incomplete data", () => {
    expect(toolBudgets(rows, run)).toEqual([
      { tool: "alpha", retriesUsed: 1, budget: 3, assumed: false },
      { tool: "beta", retriesUsed: 0, budget: 3, assumed: false },
    ]);
    expect(toolBudgets(rows, null)[0]).toMatchObject({ budget: 12, assumed: true });
    expect(incompleteCounts(rows)).toEqual({ attempts: 1, calls: 1 });
  });

  it("finds an attempt by span id, as a link names it", () => {
    expect(findSpan(layout, "s3")).toEqual({ row: 3, bar: 0 });
    expect(findSpan(layout, "nope")).toBeNull();
  });
});

describe("timelineMarkers", () => {
  it("draws deadline, end and start when the record says them", () => {
    expect(timelineMarkers({ deadline: 12_000, runEnd: 10_000, runRecordMissing: false })).toEqual([
      { key: "deadline", at: 12_000, label: "deadline +12 s" },
      { key: "end", at: 10_000, label: "run ended" },
      { key: "start", at: 0, label: "run started" },
    ]);
    expect(timelineMarkers({ deadline: null, runEnd: null, runRecordMissing: true })).toEqual([]);
  });
});

describe("revealSpan", () => {
  const bounds = { start: 0, end: 1000 };
  it("pans only when the span is wholly outside the view", () => {
    expect(revealSpan({ start: 0, end: 100 }, 50, 150, bounds)).toEqual({ start: 0, end: 100 });
    expect(revealSpan({ start: 0, end: 100 }, 500, 520, bounds)).toEqual({ start: 460, end: 560 });
    expect(revealSpan({ start: 0, end: 100 }, 990, 1000, bounds)).toEqual({ start: 900, end: 1000 });
  });
});
