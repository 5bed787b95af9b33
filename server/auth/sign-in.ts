import { recordAudit } from "@/db/audit/record-audit";
import { blockSignIns, clearFailedSignIns, countFailedSignIn, findUserCredentials, setUserPassword, type UserRow } from "@/db/auth/users";
import type { SignInBody } from "@/lib/contracts/auth";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { authThrottle } from "../http/auth-throttle";
import { clientAddress } from "../http/node-server";
import { requestAddress } from "../http/request-address";
import { getStore } from "../store";
import { hashPassword, needsRehash, verifyAgainstDecoy, verifyPassword } from "./password";

/** The longest an account stays blocked, however many failures it piles up. */
const MAX_BLOCK_MS = 86_400_000;

/**
 * How long an account is blocked after `failures` wrong passwords in a row: nothing below
 * FAULTLINE_AUTH_MAX_FAILURES, then one FAULTLINE_AUTH_WINDOW_MS, doubling with each further failure
 * (up to a day). Guessing one account's password from many addresses costs more and more.
 */
export function accountBlockMs(failures: number, maxFailures: number, windowMs: number): number {
  if (failures < maxFailures) return 0;
  return Math.min(MAX_BLOCK_MS, windowMs * 2 ** Math.min(failures - maxFailures, 20));
}

const retryAfter = (ms: number) => ({ "Retry-After": String(Math.max(1, Math.ceil(ms / 1000))) });

/** The per-address throttle of password sign-ins (shared with nothing else: a wrong key is not a wrong password). */
function addressThrottle() {
  const c = config();
  return authThrottle("password", c.authMaxFailures, c.authWindowMs);
}

/** Counts a failure against the address, and against the account when there is one; audits it. */
async function failSignIn(req: Request, email: string, user: UserRow | null, reason: string): Promise<void> {
  const c = config();
  addressThrottle().fail(clientAddress(req, c.trustProxy));
  const now = Date.now();
  const store = await getStore();
  await store.transaction(async (tx) => {
    if (user) {
      const failures = await countFailedSignIn(tx, user.id);
      const block = accountBlockMs(failures, c.authMaxFailures, c.authWindowMs);
      if (block > 0) await blockSignIns(tx, user.id, now + block);
    }
    await recordAudit(tx, {
      projectId: null,
      actorUserId: user?.id ?? null,
      actorLabel: user?.email ?? "anonymous",
      action: "auth.sign_in_failed",
      target: email.slice(0, 254),
      detail: { reason },
      address: requestAddress(req),
      at: now,
    });
  });
}

/**
 * Checks an email and password. Refusals: 429 + Retry-After while the address or the account is
 * throttled (checked before the password, which is then not tried), 401 for an unknown email or a
 * wrong password (one message for both, and the same time spent), 403 for a disabled account (said
 * only to someone who knew its password). A success forgets the account's failures, upgrades an
 * old hash, and is audited.
 */
export async function authenticatePassword(req: Request, body: SignInBody): Promise<UserRow> {
  const client = clientAddress(req, config().trustProxy);
  addressThrottle().check(client, "sign-in");
  const store = await getStore();
  const user = await findUserCredentials(store, body.email);
  const now = Date.now();
  if (user?.signInBlockedUntil != null && user.signInBlockedUntil > now) {
    throw new ApiError("rate_limited", "too many failed sign-ins for this account; retry later", undefined, retryAfter(user.signInBlockedUntil - now));
  }
  const matches = user?.passwordHash ? await verifyPassword(body.password, user.passwordHash) : await verifyAgainstDecoy(body.password);
  if (!user || !matches) {
    await failSignIn(req, body.email, user, user ? (user.passwordHash ? "wrong password" : "no password set") : "unknown email");
    throw new ApiError("unauthorized", "wrong email or password");
  }
  if (user.disabledAt !== null) {
    await failSignIn(req, body.email, user, "disabled account");
    throw new ApiError("forbidden", "this account is disabled; ask an instance owner to enable it");
  }
  const upgraded = needsRehash(user.passwordHash!) ? await hashPassword(body.password) : null;
  await store.transaction(async (tx) => {
    await clearFailedSignIns(tx, user.id);
    if (upgraded) await setUserPassword(tx, user.id, upgraded);
    await recordAudit(tx, { projectId: null, actorUserId: user.id, actorLabel: user.email, action: "auth.sign_in", target: user.email, detail: { method: "password" }, address: requestAddress(req), at: now });
  });
  return user;
}
