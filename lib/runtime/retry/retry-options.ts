/** Per-call retry settings of the run loop. All durations are milliseconds. */
export interface RetryOptions {
  /** Total attempts per call, first included. `1` disables retries. */
  readonly maxAttempts: number;
  /** Backoff window of the first retry. */
  readonly baseDelayMs: number;
  /** Growth of the window per retry; at least 1. */
  readonly multiplier: number;
  /** Largest backoff window. */
  readonly maxDelayMs: number;
  /** Longest `retryAfterMs` honoured; a longer one fails the call closed at once. */
  readonly maxRetryAfterMs: number;
}

/**
 * Defaults. Unlike the reference kit (one attempt unless configured), three attempts: a tool that
 * marks a failure transient is asking for a retry, and silently ignoring that hides the code.
 */
export const DEFAULT_RETRY: RetryOptions = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 500,
  multiplier: 2,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
});

function check(ok: boolean, what: string): void {
  if (!ok) throw new RangeError(`invalid retry option: ${what}`);
}

/** Fills defaults and validates; throws a `RangeError` on a nonsensical setting. */
export function retryOptions(partial: Partial<RetryOptions> = {}): RetryOptions {
  const o = { ...DEFAULT_RETRY, ...partial };
  check(Number.isInteger(o.maxAttempts) && o.maxAttempts >= 1 && o.maxAttempts <= 1000, "maxAttempts must be an integer in 1..1000");
  for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const) {
    check(Number.isFinite(o[key]) && o[key] >= 0, `${key} must be a finite number >= 0`);
  }
  check(Number.isFinite(o.multiplier) && o.multiplier >= 1, "multiplier must be >= 1");
  return Object.freeze(o);
}
