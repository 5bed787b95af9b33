import { codeSourceLabel } from "@/lib/classify/code-source";
import { A, type RunTimeline, type TimelineCall } from "@/lib/contracts/run-timeline";
import type { TimelineFrame } from "./timeline-frame";
import { outcomeLabel } from "./timeline-labels";
import { checkNumbering, orderAttempts } from "./timeline-numbering";
import type { AttemptBar, BackoffGap } from "./timeline-types";

/** What the bars of a call need to know about the run and the answer. */
export interface BarContext {
  frame: TimelineFrame;
  /** The answer's t0 (attempt times are ms after it). */
  t0: number;
  /** Whether the run record arrived: only then can an attempt start before the run. */
  hasRunRecord: boolean;
  /** Resolves an index into the answer's `strings`. */
  str: (i: number | null) => string | null;
  /** Attempts whose code a classification rule set, by span id; other codes are the emitter's. */
  codedBy?: RunTimeline["codedBy"];
}

export interface CallAttempts {
  bars: AttemptBar[];
  gaps: BackoffGap[];
  missingAttempts: [number, number][];
  /** Retries the call consumed: at least the ones its numbering proves. */
  retries: number;
  lastRetryAfterMs: number | null;
}

/**
 * One call's attempts as bars in ms from the origin, in attempt order, with the waits between them.
 * Inconsistent data is flagged on the bar where it is, never dropped or reordered to look tidy.
 */
export function layoutCallAttempts(call: Pick<TimelineCall, "attempts">, ctx: BarContext): CallAttempts {
  const { frame, str } = ctx;
  const order = orderAttempts(call.attempts);
  const ordered = order.map((i) => call.attempts[i]!);
  const numbering = checkNumbering(ordered.map((a) => a[A.attempt]));
  const gaps: BackoffGap[] = [];
  const bars = ordered.map((a, k): AttemptBar => {
    const flags = numbering.flags[k]!;
    const n = a[A.attempt];
    const start = a[A.startedAt] + frame.shift;
    const end = a[A.endedAt] + frame.shift;
    if (end < start) flags.push("ends_before_start");
    const prev = ordered[k - 1];
    if (prev) {
      const from = prev[A.endedAt] + frame.shift;
      if (start < from) flags.push("starts_before_previous_end");
      const retryAfterMs = prev[A.retryAfterMs];
      gaps.push({ from, to: start, waitedMs: start - from, backoffMs: prev[A.backoffMs], retryAfterMs, retryAfterAt: retryAfterMs === null ? null : from + retryAfterMs });
    }
    if (ctx.hasRunRecord && start < 0) flags.push("before_run_start");
    if (frame.runEnd !== null && Math.max(start, end) > frame.runEnd) flags.push("after_run_end");
    const outcome = str(a[A.outcome]);
    const code = str(a[A.code]);
    const ruled = ctx.codedBy?.[a[A.spanId]];
    return {
      spanId: a[A.spanId],
      tupleIndex: order[k]!,
      attempt: n,
      start,
      end,
      startedAt: ctx.t0 + a[A.startedAt],
      outcome,
      code,
      codeSource: code === null ? null : codeSourceLabel(ruled ?? { kind: "emitter" }),
      errorClass: str(a[A.errorClass]),
      retryable: a[A.retryable],
      retryAfterMs: a[A.retryAfterMs],
      backoffMs: a[A.backoffMs],
      decision: str(a[A.decision]),
      message: a[A.message],
      label: `${n === null ? "#?" : `#${n}`} ${outcomeLabel(outcome)}`,
      failing: outcome !== null && outcome !== "ok",
      flags,
    };
  });
  return {
    bars,
    gaps,
    missingAttempts: numbering.missing,
    retries: Math.max(ordered.length - 1, numbering.maxKnown - 1, 0),
    lastRetryAfterMs: ordered[ordered.length - 1]?.[A.retryAfterMs] ?? null,
  };
}
