import type { Audited } from "@/db/audit/audited-change";
import { blockSignIns, clearFailedSignIns, countFailedSignIn, findUserCredentials, setUserPassword, type UserRow } from "@/db/auth/users";
import type { Tx } from "@/db/client";
import type { SignInBody } from "@/lib/contracts/auth";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { authThrottle } from "../http/auth-throttle";
import { clientAddress } from "../http/node-server";
import { getStore } from "../store";
import { hashPassword, needsRehash, verifyAgainstDecoy, verifyPassword } from "./password";

/** The longest an account stays blocked, however many failures it piles up. */
const MAX_BLOCK_MS = 86_400_000;

/**
 * How many times FAULTLINE_AUTH_MAX_FAILURES an account takes from all addresses together before it
 * is blocked, and an address across all accounts before it is: far above the per account-and-address
 * limit, so the owner is not locked out by someone else's guesses, while guessing one password from
 * many addresses, or many passwords from one, still stops.
 */
export const WIDE_LIMIT_FACTOR = 10;

/**
 * How long an account is blocked after `failures` wrong passwords in a row from any addresses:
 * nothing below `maxFailures` (FAULTLINE_AUTH_MAX_FAILURES × WIDE_LIMIT_FACTOR), then one
 * FAULTLINE_AUTH_WINDOW_MS, doubling with each further failure (up to a day).
 */
export function accountBlockMs(failures: number, maxFailures: number, windowMs: number): number {
  if (failures < maxFailures) return 0;
  return Math.min(MAX_BLOCK_MS, windowMs * 2 ** Math.min(failures - maxFailures, 20));
}

const retryAfter = (ms: number) => ({ "Retry-After": String(Math.max(1, Math.ceil(ms / 1000))) });

/** Password throttles, per node: by account and address together, and by address across accounts. */
function throttles() {
  const c = config();
  return {
    pair: authThrottle("password", c.authMaxFailures, c.authWindowMs),
    address: authThrottle("password address", c.authMaxFailures * WIDE_LIMIT_FACTOR, c.authWindowMs),
  };
}

/** The subject of the account-and-address throttle. */
const pairOf = (email: string, client: string) => `${email.trim().toLowerCase()} ${client}`;

/** A password checked, before anything is written: the account, or why it is refused (and the refusal to answer). */
export type PasswordVerdict =
  | { ok: true; user: UserRow; upgraded: string | null }
  | { ok: false; user: UserRow | null; email: string; reason: string; refusal: ApiError };

/**
 * Checks an email and password. Refusals: 429 + Retry-After while this account from this address,
 * this address across accounts, or this account across addresses is throttled (thrown, before the
 * password, which is then not tried); a verdict of 401 for an unknown
 * email or a wrong password (one message for both, and the same time spent), 403 for a disabled
 * account (said only to someone who knew its password). A failure counts against the account from
 * this address and against the address here; `recordSignIn` writes the account's count.
 */
export async function checkPassword(req: Request, body: SignInBody): Promise<PasswordVerdict> {
  const client = clientAddress(req, config().trustProxy);
  const { pair, address } = throttles();
  const pairWait = pair.blockedFor(pairOf(body.email, client));
  if (pairWait > 0) throw new ApiError("rate_limited", "too many failed sign-ins for this account from this address; retry later", undefined, { "Retry-After": String(pairWait) });
  address.check(client, "sign-in");
  const user = await findUserCredentials(await getStore(), body.email);
  const now = Date.now();
  if (user?.signInBlockedUntil != null && user.signInBlockedUntil > now) {
    throw new ApiError("rate_limited", "too many failed sign-ins for this account; retry later", undefined, retryAfter(user.signInBlockedUntil - now));
  }
  const matches = user?.passwordHash ? await verifyPassword(body.password, user.passwordHash) : await verifyAgainstDecoy(body.password);
  const refused = (reason: string, refusal: ApiError): PasswordVerdict => {
    pair.fail(pairOf(body.email, client));
    address.fail(client);
    return { ok: false, user, email: body.email, reason, refusal };
  };
  if (!user || !matches) return refused(user ? (user.passwordHash ? "wrong password" : "no password set") : "unknown email", new ApiError("unauthorized", "wrong email or password"));
  if (user.disabledAt !== null) return refused("disabled account", new ApiError("forbidden", "this account is disabled; ask an instance owner to enable it"));
  return { ok: true, user, upgraded: needsRehash(user.passwordHash!) ? await hashPassword(body.password) : null };
}

/**
 * Writes what a checked sign-in changes, with its audit entry: a failure counts against the account
 * (blocking it after too many) and is audited as `auth.sign_in_failed`; a success forgets the
 * account's failures, upgrades an old hash, and is audited as `auth.sign_in`. The refusal is
 * answered after this commits, so failures are kept.
 */
export async function recordSignIn(tx: Tx, verdict: PasswordVerdict, now: number): Promise<Audited<PasswordVerdict>> {
  if (!verdict.ok) {
    const { user } = verdict;
    if (user) {
      const c = config();
      const block = accountBlockMs(await countFailedSignIn(tx, user.id), c.authMaxFailures * WIDE_LIMIT_FACTOR, c.authWindowMs);
      if (block > 0) await blockSignIns(tx, user.id, now + block);
    }
    const as = { actorUserId: user?.id ?? null, actorLabel: user?.email ?? "anonymous" };
    return { result: verdict, audit: { projectId: null, as, action: "auth.sign_in_failed", target: verdict.email.slice(0, 254), detail: { reason: verdict.reason } } };
  }
  const { user, upgraded } = verdict;
  await clearFailedSignIns(tx, user.id);
  if (upgraded) await setUserPassword(tx, user.id, upgraded);
  return { result: verdict, audit: { projectId: null, as: { actorUserId: user.id, actorLabel: user.email }, action: "auth.sign_in", target: user.email, detail: { method: "password" } } };
}
