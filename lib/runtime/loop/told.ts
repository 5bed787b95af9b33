import { LIMITS } from "../../contracts";
import { scrubText } from "../../contracts/scrub";
import type { ToolError } from "../errors/tool-error";
import { ToolArgumentValidationError } from "../errors/tool-argument-validation";
import type { RetryOptions } from "../retry/retry-options";
import type { StopReason } from "./decide";

/** What shapes the told text besides the error itself. */
export interface ToldContext {
  stop: StopReason;
  /** Attempts this call made. */
  attempts: number;
  retry: RetryOptions;
  retryAfterMs?: number | undefined;
  /** A wording chosen by an experiment or promoted in Faultline: it takes the place of the error's message. */
  wording?: string | undefined;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}s`;

function suffix(ctx: ToldContext): string {
  const after = ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
  switch (ctx.stop) {
    case "budget_capped":
      return `${after}; the retry budget of this tool for the run is used up`;
    case "retry_after_over_cap":
      return `${after}; not retried: the upstream asked to wait ${seconds(ctx.retryAfterMs ?? 0)}, more than the ${seconds(ctx.retry.maxRetryAfterMs)} this run honours`;
    case "past_deadline":
      return `${after}; not retried: the next attempt could not start before the run's deadline`;
    case "not_idempotent":
      return ctx.retry.maxAttempts > 1 ? `${after}; not declared idempotent, so it was not tried again` : after;
    default:
      return after;
  }
}

// CrewAI-style hint: the model decides whether to call again, so it is told whether that can help
// and, when the upstream said so, how long to wait first.
function retryHint(error: ToolError, ctx: ToldContext): string {
  if (!error.retryable) return "retryable: no (repeating the same call will not help)";
  const wait = ctx.retryAfterMs === undefined || ctx.retryAfterMs <= 0 ? "" : `, not before ${seconds(ctx.retryAfterMs)}`;
  return `retryable: yes (the same call may succeed later${wait})`;
}

/**
 * The exact text the model is told for a failed call (the envelope's content), scrubbed.
 * Refusal: `<code>: <message>` (just `<code>` when the message is empty). Argument errors: the
 * repair feedback. Everything else: `error: <code>[: <message>]` plus why it was not retried, then
 * a `retryable: yes|no (…)` line. The attempt count is this call's own, not the tool's total
 * across the run.
 */
export function toldText(error: ToolError, ctx: ToldContext): string {
  let text: string;
  const detail = ctx.wording ?? error.detail;
  if (error.errorClass === "ToolRefusal") text = detail ? `${error.code}: ${detail}` : error.code;
  else if (error instanceof ToolArgumentValidationError) text = error.feedback();
  else text = `error: ${error.code}${detail ? `: ${detail}` : ""}${suffix(ctx)}\n${retryHint(error, ctx)}`;
  const scrubbed = scrubText(text);
  return scrubbed.length > LIMITS.maxTextLength ? `${scrubbed.slice(0, LIMITS.maxTextLength - 1)}…` : scrubbed;
}
