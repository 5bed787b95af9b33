/** Per-attempt outcomes. `declined` (the tool said no) and `refused` (permission said no) never merge. */
export const OUTCOMES = [
  "ok",
  "failed",
  "declined",
  "refused",
  "not_found",
  "timed_out",
  "invalid_arguments",
  "result_rejected",
  "cancelled",
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The taxonomy classes of the runtime library. */
export const ERROR_CLASSES = [
  "ToolFailure",
  "ToolRefusal",
  "ToolTimedOutError",
  "ToolNotPermittedError",
  "ToolNotFoundError",
  "ToolArgumentValidationError",
  "ToolResultError",
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** What the run loop did with an error. */
export const DECISIONS = [
  "retried",
  "surfaced",
  "delivered",
  "failed_run",
  "failed_closed",
  "exhausted",
  "budget_capped",
  "cancelled",
] as const;
export type Decision = (typeof DECISIONS)[number];

/** Run states, as the reference kit names them. */
export const RUN_STATES = ["pending", "running", "suspended", "completed", "failed", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Record types of the native batch. */
export const RECORD_TYPES = ["run", "tool_call_span", "tool_error"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Outcomes that count as a failure for failure rates (everything but `ok`). */
export const FAILING_OUTCOMES: readonly Outcome[] = OUTCOMES.filter((o) => o !== "ok");
