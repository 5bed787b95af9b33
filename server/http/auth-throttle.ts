import { ApiError } from "./api-error";
import { processState } from "../process-state";

/** At most this many client addresses are remembered; the oldest entry makes room for a new one. */
const MAX_CLIENTS = 10_000;

interface Failures {
  count: number;
  windowStart: number;
}

/**
 * Counts failed authentications (wrong ingest keys, wrong admin secrets) per client address in a
 * fixed window. After `maxFailures` failures the address is answered 429 with `Retry-After` until
 * the window ends, with or without a right secret, so guessing costs a window per few tries. The
 * map is in memory and bounded (a flood of addresses evicts the oldest first: insertion order).
 */
export class AuthThrottle {
  private readonly clients = new Map<string, Failures>();

  constructor(
    readonly maxFailures: number,
    readonly windowMs: number,
    private readonly capacity: number = MAX_CLIENTS,
  ) {}

  /** Seconds until `client` may try again, or 0 when it may try now. */
  blockedFor(client: string, now: number = Date.now()): number {
    const entry = this.clients.get(client);
    if (!entry) return 0;
    const left = entry.windowStart + this.windowMs - now;
    if (left <= 0) {
      this.clients.delete(client);
      return 0;
    }
    return entry.count >= this.maxFailures ? Math.ceil(left / 1000) : 0;
  }

  /** Throws the 429 when `client` is blocked. */
  check(client: string, what: string, now: number = Date.now()): void {
    const seconds = this.blockedFor(client, now);
    if (seconds > 0) {
      throw new ApiError("rate_limited", `too many failed ${what} attempts from this address; retry later`, undefined, {
        "Retry-After": String(seconds),
      });
    }
  }

  /** Records a failure of `client`. */
  fail(client: string, now: number = Date.now()): void {
    const entry = this.clients.get(client);
    if (entry && now - entry.windowStart < this.windowMs) {
      entry.count++;
      return;
    }
    this.clients.delete(client);
    if (this.clients.size >= this.capacity) this.clients.delete(this.clients.keys().next().value!);
    this.clients.set(client, { count: 1, windowStart: now });
  }

  /** Addresses remembered (for tests). */
  get size(): number {
    return this.clients.size;
  }
}

const throttles = processState("auth-throttles", () => new Map<string, AuthThrottle>());

/** The process's throttle for one kind of secret ("ingest key", "admin secret"), shared by every module copy. */
export function authThrottle(kind: string, maxFailures: number, windowMs: number): AuthThrottle {
  let throttle = throttles.get(kind);
  if (!throttle || throttle.maxFailures !== maxFailures || throttle.windowMs !== windowMs) {
    throttle = new AuthThrottle(maxFailures, windowMs);
    throttles.set(kind, throttle);
  }
  return throttle;
}
