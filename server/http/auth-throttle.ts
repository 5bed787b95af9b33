import { createHash } from "node:crypto";
import { config } from "../config";
import { ApiError } from "./api-error";
import { processState } from "../process-state";

/** At most this many client addresses are remembered; the oldest entry makes room for a new one. */
const MAX_CLIENTS = 10_000;

interface Failures {
  count: number;
  windowStart: number;
}

/**
 * Counts failed authentications per subject (a client address, a presented credential, an account
 * and address) in a fixed window; after `maxFailures` the subject is blocked until the window ends.
 * What a block refuses is the caller's choice (see `verifyThrottled`). The map is in memory, per
 * node, and bounded (a flood of subjects evicts the oldest first: insertion order).
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

const rateLimited = (message: string, seconds: number) => new ApiError("rate_limited", message, undefined, { "Retry-After": String(seconds) });

/** A presented secret as a throttle subject: a digest, so the map never holds a secret. */
export const credentialSubject = (presented: string): string => createHash("sha256").update(presented).digest("base64url").slice(0, 22);

/**
 * Verifies a presented random credential (a project key, a setup or invitation token: far too
 * many bits to guess) under two throttles, so that a valid credential is never refused for anyone
 * else's failures (an agent left on a revoked key behind the same NAT, loopback or proxy):
 *
 * - the exact credential: once it failed FAULTLINE_AUTH_MAX_FAILURES times in the window it is
 *   answered 429 before any lookup (a client retrying a revoked key backs off, cheaply);
 * - the address: once it sent that many failures, its further failures are answered 429 instead of
 *   401, telling a misconfigured client to back off; its valid credentials still pass.
 *
 * `limitFactor` multiplies the limit for credentials whose failures are mostly honest (a link opened
 * again after it was used or expired). Returns what `verify` found, or throws the 429; a null result
 * is the caller's 401 or 404.
 */
export async function verifyThrottled<T>(
  kind: string,
  what: { presented: string; client: string },
  verify: () => Promise<T | null>,
  options: { limitFactor?: number; now?: number } = {},
): Promise<T | null> {
  const c = config();
  const now = options.now ?? Date.now();
  const limit = c.authMaxFailures * (options.limitFactor ?? 1);
  const byCredential = authThrottle(`${kind} credential`, limit, c.authWindowMs);
  const byAddress = authThrottle(kind, limit, c.authWindowMs);
  const subject = credentialSubject(what.presented);
  const credentialWait = byCredential.blockedFor(subject, now);
  if (credentialWait > 0) throw rateLimited(`this ${kind} failed too many times; it is invalid, revoked or expired: retry later with a valid one`, credentialWait);
  const found = await verify();
  if (found !== null) return found;
  const addressWait = byAddress.blockedFor(what.client, now);
  byCredential.fail(subject, now);
  byAddress.fail(what.client, now);
  if (addressWait > 0) throw rateLimited(`too many failed ${kind} attempts from this address; retry later`, addressWait);
  return null;
}
