import { z } from "zod";
import { LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS } from "./limits";

/** Control characters never belong in identifiers; they break logs, CSV exports and terminals. */
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** A client-generated identifier (record id, run id, call id, span id). */
export const idSchema = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.maxIdLength, `must be at most ${LIMITS.maxIdLength} characters`)
  .regex(NO_CONTROL, "must not contain control characters");

/** A short display name (agent, tool, service). */
export const nameSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.maxNameLength, `must be at most ${LIMITS.maxNameLength} characters`)
  .regex(NO_CONTROL, "must not contain control characters");

/** A stable error code such as `upstream_unavailable`. */
export const codeSchema = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.maxCodeLength, `must be at most ${LIMITS.maxCodeLength} characters`)
  .regex(NO_CONTROL, "must not contain control characters");

/** A release or version string. */
export const versionSchema = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.maxVersionLength, `must be at most ${LIMITS.maxVersionLength} characters`)
  .regex(NO_CONTROL, "must not contain control characters");

/** Free text (messages, told texts). */
export const textSchema = z.string().max(LIMITS.maxTextLength, `must be at most ${LIMITS.maxTextLength} characters`);

const RFC3339 =
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function checkRange(ms: number, ctx: z.RefinementCtx): number {
  if (ms < MIN_TIME_MS) {
    ctx.addIssue({ code: "custom", message: "must not be before 2000-01-01T00:00:00Z" });
    return z.NEVER;
  }
  if (ms > Date.now() + MAX_FUTURE_SKEW_MS) {
    ctx.addIssue({ code: "custom", message: "must not be more than one day in the future" });
    return z.NEVER;
  }
  return ms;
}

/**
 * A point in time: integer epoch milliseconds or an RFC 3339 string. Output is epoch ms.
 * Bounded to [2000-01-01, now + 1 day] so a seconds-vs-milliseconds mix-up is rejected, not stored.
 */
export const timeSchema = z
  .union([z.number(), z.string()], { error: "must be epoch milliseconds or an RFC 3339 date-time" })
  .transform((value, ctx): number => {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      ctx.addIssue({ code: "custom", message: "must be an integer number of epoch milliseconds" });
      return z.NEVER;
    }
    return checkRange(value, ctx);
  }
  if (!RFC3339.test(value)) {
    ctx.addIssue({ code: "custom", message: "must be epoch milliseconds or an RFC 3339 date-time" });
    return z.NEVER;
  }
  const ms = Date.parse(value.replace(" ", "T"));
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: "is not a valid date-time" });
    return z.NEVER;
  }
  return checkRange(ms, ctx);
});

/** A non-negative delay in milliseconds (retry_after, backoff). */
export const delayMsSchema = z
  .number()
  .int("must be an integer number of milliseconds")
  .min(0, "must not be negative")
  .max(LIMITS.maxDelayMs, "must be at most one day");

/** An attempt number, 1-based. */
export const attemptSchema = z
  .number()
  .int("must be an integer")
  .min(1, "must be at least 1")
  .max(LIMITS.maxAttempt, `must be at most ${LIMITS.maxAttempt}`);
