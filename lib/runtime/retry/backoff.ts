import type { Random } from "../common/time";
import type { RetryOptions } from "./retry-options";

/** The backoff window after failed attempt `attempt` (1-based): base × multiplier^(attempt−1), capped. */
export function backoffWindow(options: RetryOptions, attempt: number): number {
  const raw = options.baseDelayMs * options.multiplier ** Math.max(0, attempt - 1);
  return Math.min(Number.isFinite(raw) ? raw : options.maxDelayMs, options.maxDelayMs);
}

/**
 * Full jitter: a whole number of milliseconds drawn uniformly from [0, window]. Spreading retries
 * over the whole window keeps many clients that failed together from retrying together.
 */
export function fullJitterDelay(options: RetryOptions, attempt: number, random: Random): number {
  const window = Math.floor(backoffWindow(options, attempt));
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return Math.min(window, Math.floor(unit * (window + 1)));
}

/** Seeded PRNG (mulberry32) for reproducible tests, property checks and demos. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
