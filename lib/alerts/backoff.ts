/** Whether a receiver's answer is worth another attempt: 5xx, 408 and 429 are; other 4xx never will be. */
export const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * The delay before attempt `attempts + 1`: doubling from `baseMs`, capped at `capMs`, with no
 * attempt after `giveUpAfterMs` from the first (about a day by default: hours of receiver outage are
 * ridden out). Null: give up.
 */
export function nextAttemptDelay(attempts: number, firstAttemptAt: number, now: number, o: { baseMs: number; capMs: number; giveUpAfterMs: number }): number | null {
  const delay = Math.min(o.capMs, o.baseMs * 2 ** Math.max(0, attempts - 1));
  return now + delay - firstAttemptAt > o.giveUpAfterMs ? null : delay;
}
