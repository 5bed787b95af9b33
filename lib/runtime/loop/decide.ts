import type { Decision } from "../../contracts";
import { circuitOpenMode } from "../breaker/circuit-open";
import type { Random } from "../common/time";
import { isUnmapped } from "../errors/guards";
import type { ToolError } from "../errors/tool-error";
import { fullJitterDelay } from "../retry/backoff";
import type { RetryOptions } from "../retry/retry-options";

/** What to do with a failed call: surface it to the model, or fail the whole run. */
export type FailurePolicy = "surface_to_model" | "fail_run";

/** Why a call stopped being retried; shapes the told text. */
export type StopReason =
  | "refusal"
  | "never_retried"
  | "not_retryable"
  | "not_idempotent"
  | "exhausted"
  | "budget_capped"
  | "retry_after_over_cap"
  | "past_deadline"
  | "circuit_open";

/** Everything the decision depends on. Pure input: no clock reads, no I/O. */
export interface DecisionInput {
  error: ToolError;
  idempotent: boolean;
  /** The attempt that just failed, from 1. */
  attempt: number;
  /** Retries this tool already consumed in the run, across all its calls. */
  toolRetriesUsed: number;
  maxToolAttempts: number;
  retry: RetryOptions;
  now: number;
  deadlineAt?: number | undefined;
  policy: FailurePolicy;
  random: Random;
}

/** The verdict for one failed attempt. */
export type Verdict =
  | { decision: "retried"; backoffMs: number; retryAfterMs: number | undefined }
  | { decision: Exclude<Decision, "retried" | "cancelled">; stop: StopReason; retryAfterMs: number | undefined };

/** Whether the loop may try `error` again at all, before budgets and clocks are consulted. */
function eligibility(error: ToolError, idempotent: boolean): StopReason | "eligible" {
  switch (error.errorClass) {
    case "ToolRefusal":
      return "refusal";
    case "ToolNotFoundError":
    case "ToolNotPermittedError":
    case "ToolArgumentValidationError":
    case "ToolResultError":
      return "never_retried";
    case "ToolTimedOutError":
      return error.retryable || idempotent ? "eligible" : "not_retryable";
    case "ToolFailure":
      if (circuitOpenMode(error) === "fail_fast") return "circuit_open";
      if (isUnmapped(error)) return idempotent ? "eligible" : "not_idempotent";
      return error.retryable ? "eligible" : "not_retryable";
  }
}

/**
 * The decision table. Order of the gates: per-tool run budget, per-call attempts, `retryAfterMs`
 * cap, then the deadline — so a wait that cannot be honoured is refused without sleeping.
 * An untyped exception's own wait is ignored; only a typed error's claim counts. A call turned
 * away by a fail-fast circuit stops at once (`circuit_open`), still retryable for the caller.
 */
export function decide(input: DecisionInput): Verdict {
  const { error } = input;
  const claimed = isUnmapped(error) || error.retryAfterMs === undefined ? undefined : Math.round(error.retryAfterMs);
  const stopWith = (stop: StopReason, decision?: Verdict["decision"]): Verdict => ({
    decision: (decision ?? (input.policy === "fail_run" ? "failed_run" : "surfaced")) as Exclude<Decision, "retried" | "cancelled">,
    stop,
    retryAfterMs: claimed,
  });

  const eligible = eligibility(error, input.idempotent);
  if (eligible === "refusal") return stopWith("refusal", "delivered");
  if (eligible !== "eligible") return stopWith(eligible);
  if (input.toolRetriesUsed >= input.maxToolAttempts) return stopWith("budget_capped", "budget_capped");
  if (input.attempt >= input.retry.maxAttempts) return stopWith("exhausted", "exhausted");

  let delay: number;
  if (claimed !== undefined) {
    if (claimed > input.retry.maxRetryAfterMs) return stopWith("retry_after_over_cap", "failed_closed");
    delay = claimed;
  } else {
    delay = fullJitterDelay(input.retry, input.attempt, input.random);
  }
  if (input.deadlineAt !== undefined && input.now + delay >= input.deadlineAt) {
    return stopWith("past_deadline", "failed_closed");
  }
  return { decision: "retried", backoffMs: delay, retryAfterMs: claimed };
}
