/** Every row of the timeline has this height, which is what makes hand virtualisation exact. */
export const LANE_HEIGHT = 28;

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
  /** Where the code came from, in words (lib/classify/code-source.ts); null when the attempt has no code. */
  codeSource: string | null;
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
  /** The extent of everything drawn (run marks included), in ms from the origin: how far one can pan. */
  domain: { start: number; end: number };
  /** The extent of the attempts alone: what "fit" shows. Equals `domain` when no attempt was recorded. */
  dataDomain: { start: number; end: number };
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
