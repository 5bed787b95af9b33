import { A, type AttemptTuple, type RunTimeline, type TimelineCall } from "@/lib/contracts/runs";
import { decisionLabel, outcomeLabel } from "./timeline-labels";

/** Every row of the timeline has this height, which is what makes hand virtualisation exact. */
export const LANE_HEIGHT = 28;
/** The runtime's default per-tool retry budget, assumed when the run record does not say. */
export const DEFAULT_MAX_TOOL_ATTEMPTS = 12;

/** Ways an attempt's data is incomplete or inconsistent; each is drawn, never silently fixed. */
export type AttemptFlag =
  | "attempt_unknown" // no attempt number
  | "attempt_duplicate" // the same number twice in one call
  | "missing_before" // numbers are missing between the previous attempt and this one
  | "starts_before_previous_end" // clocks disagree with the attempt order
  | "ends_before_start"
  | "before_run_start"
  | "after_run_end";

export interface AttemptBar {
  spanId: string;
  /** Index into the call's `attempts` array of the API answer. */
  tupleIndex: number;
  attempt: number | null;
  /** Milliseconds from the layout origin. A bar whose end is before its start has `end < start`. */
  start: number;
  end: number;
  /** Epoch ms as recorded. */
  startedAt: number;
  outcome: string | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
  retryAfterMs: number | null;
  backoffMs: number | null;
  /** What the loop decided after this attempt, as the span says. */
  decision: string | null;
  message: string | null;
  label: string;
  /** Anything but `ok` (and an unknown outcome is not counted as a failure). */
  failing: boolean;
  flags: AttemptFlag[];
}

/** The wait between two consecutive attempts of a call. */
export interface BackoffGap {
  /** End of the earlier attempt and start of the later one, in ms from the origin. */
  from: number;
  to: number;
  /** The wait that really happened (`to - from`); negative when the clocks disagree. */
  waitedMs: number;
  /** The backoff the runtime recorded on the earlier attempt. */
  backoffMs: number | null;
  /** The `retry_after` the tool asked for on the earlier attempt, and where that lands. */
  retryAfterMs: number | null;
  retryAfterAt: number | null;
}

export type FinalKind = string; // a decision, or "succeeded_after_retries" | "ok" | "no_decision" | "unknown"

export interface FinalDecision {
  kind: FinalKind;
  label: string;
  /** Where the verdict came from: the call's final tool error, its last span, or derived from outcomes. */
  source: "tool_error" | "span" | "derived";
}

export interface ToolRow {
  kind: "tool";
  index: number;
  y: number;
  tool: string;
  calls: number;
  retriesUsed: number;
}

export interface CallRow {
  kind: "call";
  index: number;
  y: number;
  tool: string;
  callId: string;
  /** Index into `RunTimeline.calls`. */
  callIndex: number;
  bars: AttemptBar[];
  gaps: BackoffGap[];
  /** Attempt numbers that never arrived, as inclusive ranges. */
  missingAttempts: [number, number][];
  /** The `retry_after` asked on the last attempt, when no further attempt followed (e.g. failed closed). */
  lastRetryAfterMs: number | null;
  final: FinalDecision;
  /** Retries this call consumed from the tool's budget (at least the ones its numbering proves). */
  retries: number;
}

export type TimelineRow = ToolRow | CallRow;

export interface ToolBudget {
  tool: string;
  retriesUsed: number;
  budget: number;
  /** True when the run record did not say and the runtime default was assumed. */
  assumed: boolean;
}

export interface TimelineLayout {
  /** Epoch ms of time 0: the run's start, else the earliest attempt or final error. */
  origin: number;
  /** The extent of everything drawn, in ms from the origin. */
  domain: { start: number; end: number };
  runRecordMissing: boolean;
  runEnd: number | null;
  deadline: number | null;
  rows: TimelineRow[];
  height: number;
  budgets: ToolBudget[];
  /** Failing attempts in time order (ties: row order), for next/previous navigation. */
  failing: { row: number; bar: number }[];
  /** Counts of flagged things, for the page's "incomplete data" summary. */
  incomplete: { attempts: number; calls: number };
}

/** Known numbers first in numeric order, then unnumbered attempts in start order. */
function orderAttempts(attempts: AttemptTuple[]): number[] {
  return attempts
    .map((_, i) => i)
    .sort((i, j) => {
      const a = attempts[i]!;
      const b = attempts[j]!;
      const na = a[A.attempt];
      const nb = b[A.attempt];
      if (na !== null && nb !== null && na !== nb) return na - nb;
      if (na === null && nb !== null) return 1;
      if (na !== null && nb === null) return -1;
      return a[A.startedAt] - b[A.startedAt] || i - j;
    });
}

function finalDecision(call: TimelineCall, bars: AttemptBar[], retries: number): FinalDecision {
  const fromError = call.error?.decision;
  if (fromError) return { kind: fromError, label: decisionLabel(fromError), source: "tool_error" };
  const last = bars[bars.length - 1];
  const fromSpan = last?.decision;
  if (fromSpan) {
    // A last attempt that says "retried" means the next attempt never arrived.
    const label = fromSpan === "retried" ? "retried; next attempt not recorded" : decisionLabel(fromSpan);
    return { kind: fromSpan, label, source: "span" };
  }
  if (last?.outcome === "ok") {
    if (retries > 0) {
      return { kind: "succeeded_after_retries", label: `succeeded after ${retries} ${retries === 1 ? "retry" : "retries"}`, source: "derived" };
    }
    return { kind: "ok", label: "ok", source: "derived" };
  }
  if (last && last.outcome !== null) {
    return { kind: "no_decision", label: `${outcomeLabel(last.outcome)}; no decision recorded`, source: "derived" };
  }
  return { kind: "unknown", label: "outcome unknown", source: "derived" };
}

function callStart(call: TimelineCall, t0: number): number {
  let min = Infinity;
  for (const a of call.attempts) min = Math.min(min, a[A.startedAt]);
  return min === Infinity ? (call.error?.occurred_at ?? Infinity) : t0 + min;
}

/**
 * Lays out a run's retry timeline: one header row per tool and one lane per call (tools in order of
 * their first call, calls in start order), bars in ms from the origin so that zooming is a pure
 * rescale. Inconsistent data is flagged where it is, never dropped or reordered to look tidy.
 */
export function layoutTimeline(t: RunTimeline): TimelineLayout {
  const run = t.run;
  const starts = t.calls.map((c) => callStart(c, t.t0));
  const str = (i: number | null): string | null => (i === null ? null : (t.strings[i] ?? null));
  let earliest = Infinity;
  for (const s of starts) earliest = Math.min(earliest, s);
  // Without a known run start, time 0 is the earliest attempt, else the run's end.
  const origin = run?.started_at ?? (earliest !== Infinity ? earliest : (run?.ended_at ?? 0));
  const rel = (ms: number) => ms - origin;
  // Attempt times are relative to the answer's t0; the layout's origin is the run start.
  const shift = t.t0 - origin;
  const runEnd = run?.ended_at != null ? rel(run.ended_at) : null;
  const deadline = run?.deadline_at != null ? rel(run.deadline_at) : null;

  const byTool = new Map<string, number[]>();
  const callOrder = t.calls.map((_, i) => i).sort((i, j) => starts[i]! - starts[j]! || i - j);
  for (const i of callOrder) {
    const tool = t.calls[i]!.tool;
    const list = byTool.get(tool);
    if (list) list.push(i);
    else byTool.set(tool, [i]);
  }

  let domainStart = 0;
  let domainEnd = Math.max(0, runEnd ?? 0, deadline ?? 0);
  const rows: TimelineRow[] = [];
  const budgets: ToolBudget[] = [];
  const budget = run?.max_tool_attempts ?? DEFAULT_MAX_TOOL_ATTEMPTS;
  const assumed = run?.max_tool_attempts == null;
  let flaggedAttempts = 0;
  let flaggedCalls = 0;

  for (const [tool, callIndexes] of byTool) {
    const header: ToolRow = { kind: "tool", index: rows.length, y: rows.length * LANE_HEIGHT, tool, calls: callIndexes.length, retriesUsed: 0 };
    rows.push(header);
    for (const callIndex of callIndexes) {
      const call = t.calls[callIndex]!;
      const order = orderAttempts(call.attempts);
      const ordered = order.map((i) => call.attempts[i]!);
      const bars: AttemptBar[] = [];
      const gaps: BackoffGap[] = [];
      const missing: [number, number][] = [];
      const seen = new Set<number>();
      let expectNext = 1;
      let maxKnown = 0;
      let callFlagged = false;
      ordered.forEach((a, k) => {
        const flags: AttemptFlag[] = [];
        const n = a[A.attempt];
        const start = a[A.startedAt] + shift;
        const end = a[A.endedAt] + shift;
        if (n === null) flags.push("attempt_unknown");
        else if (seen.has(n)) flags.push("attempt_duplicate");
        else {
          if (n > expectNext) {
            missing.push([expectNext, n - 1]);
            flags.push("missing_before");
          }
          seen.add(n);
          expectNext = Math.max(expectNext, n + 1);
          maxKnown = Math.max(maxKnown, n);
        }
        if (end < start) flags.push("ends_before_start");
        const prev = ordered[k - 1];
        if (prev) {
          const from = prev[A.endedAt] + shift;
          if (start < from) flags.push("starts_before_previous_end");
          const retryAfterMs = prev[A.retryAfterMs];
          const retryAfterAt = retryAfterMs === null ? null : from + retryAfterMs;
          gaps.push({ from, to: start, waitedMs: start - from, backoffMs: prev[A.backoffMs], retryAfterMs, retryAfterAt });
          if (retryAfterAt !== null) domainEnd = Math.max(domainEnd, retryAfterAt);
        }
        if (run && start < 0) flags.push("before_run_start");
        if (runEnd !== null && Math.max(start, end) > runEnd) flags.push("after_run_end");
        domainStart = Math.min(domainStart, start, end);
        domainEnd = Math.max(domainEnd, start, end);
        const outcome = str(a[A.outcome]);
        if (flags.length > 0) {
          flaggedAttempts++;
          callFlagged = true;
        }
        bars.push({
          spanId: a[A.spanId],
          tupleIndex: order[k]!,
          attempt: n,
          start,
          end,
          startedAt: t.t0 + a[A.startedAt],
          outcome,
          code: str(a[A.code]),
          errorClass: str(a[A.errorClass]),
          retryable: a[A.retryable],
          retryAfterMs: a[A.retryAfterMs],
          backoffMs: a[A.backoffMs],
          decision: str(a[A.decision]),
          message: a[A.message],
          label: `${n === null ? "#?" : `#${n}`} ${outcomeLabel(outcome)}`,
          failing: outcome !== null && outcome !== "ok",
          flags,
        });
      });
      const retries = Math.max(ordered.length - 1, maxKnown - 1, 0);
      header.retriesUsed += retries;
      if (callFlagged) flaggedCalls++;
      const last = ordered[ordered.length - 1];
      rows.push({
        kind: "call",
        index: rows.length,
        y: rows.length * LANE_HEIGHT,
        tool,
        callId: call.call_id,
        callIndex,
        bars,
        gaps,
        missingAttempts: missing,
        lastRetryAfterMs: last?.[A.retryAfterMs] ?? null,
        final: finalDecision(call, bars, retries),
        retries,
      });
    }
    budgets.push({ tool, retriesUsed: header.retriesUsed, budget, assumed });
  }

  const failing: { row: number; bar: number; at: number }[] = [];
  for (const row of rows) {
    if (row.kind !== "call") continue;
    row.bars.forEach((b, i) => {
      if (b.failing) failing.push({ row: row.index, bar: i, at: b.start });
    });
  }
  failing.sort((a, b) => a.at - b.at || a.row - b.row || a.bar - b.bar);

  return {
    origin,
    domain: { start: domainStart, end: domainEnd },
    runRecordMissing: run === null,
    runEnd,
    deadline,
    rows,
    height: rows.length * LANE_HEIGHT,
    budgets,
    failing: failing.map(({ row, bar }) => ({ row, bar })),
    incomplete: { attempts: flaggedAttempts, calls: flaggedCalls },
  };
}
