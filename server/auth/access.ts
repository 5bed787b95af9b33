import { createHash, timingSafeEqual } from "node:crypto";
import { deleteSession, findSession, touchSession } from "@/db/auth/sessions";
import { countUsers } from "@/db/auth/users";
import { findMembershipRole } from "@/db/auth/memberships";
import { looksLikeKey, projectExists } from "@/db/keys";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { authThrottle } from "../http/auth-throttle";
import { clientAddress } from "../http/node-server";
import { getStore } from "../store";
import { readCookie, SESSION_COOKIE } from "./cookies";
import { tokenHash } from "./tokens";
import { processState } from "../process-state";

/** Who is asking. */
export type Caller =
  | { kind: "user"; userId: string; email: string; name: string; instanceOwner: boolean; sessionTokenHash: string; csrfToken: string }
  /** FAULTLINE_ADMIN_SECRET over HTTP Basic (password) or Bearer: an instance owner, for scripts. */
  | { kind: "admin-secret" }
  /** Setup mode: no user account exists yet and no admin secret is set: everyone local is an instance owner, as before accounts existed. */
  | { kind: "open" };

/** A resolved caller, and the new expiry when this request slid the session (the proxy then renews the cookies). */
export interface Resolution {
  caller: Caller | null;
  slidTo: number | null;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** The secret sent as `Authorization: Bearer`, or as the password of HTTP Basic (as a browser sends it). */
export function presentedSecret(req: Request): string | null {
  const header = req.headers.get("authorization") ?? "";
  const basic = header.match(/^Basic\s+(\S+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.slice(decoded.indexOf(":") + 1);
  }
  return header.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
}

/** A session slides at most once a minute (a tenth of the lifetime when that is shorter), so reads stay reads. */
export const slideIntervalMs = (ttlMs: number): number => Math.min(60_000, Math.floor(ttlMs / 10));

const flags = processState("accounts", (): { exist?: boolean } => ({}));

/**
 * Whether any account exists. Once one does the answer is cached: accounts are never all deleted,
 * and setup mode must not come back. Until then every call asks (another node may have set up).
 */
export async function accountsExist(): Promise<boolean> {
  if (flags.exist) return true;
  const exists = (await countUsers(await getStore())) > 0;
  if (exists) flags.exist = true;
  return exists;
}

/** The session a cookie names, if it is live and its account enabled; an expired or disabled one is deleted on sight. */
async function sessionCaller(req: Request, slide: boolean): Promise<Resolution | null> {
  const token = readCookie(req, SESSION_COOKIE);
  if (!token || token.length > 200) return null;
  const store = await getStore();
  const hash = tokenHash(token);
  const session = await findSession(store, hash);
  if (!session) return null;
  const now = Date.now();
  if (session.expiresAt <= now || session.disabledAt !== null) {
    await deleteSession(store, hash);
    return null;
  }
  const ttl = config().sessionTtlMs;
  let slidTo: number | null = null;
  if (slide && now - session.lastSeenAt >= slideIntervalMs(ttl) && (await touchSession(store, hash, now, now + ttl, now - slideIntervalMs(ttl)))) slidTo = now + ttl;
  const caller: Caller = {
    kind: "user",
    userId: session.userId,
    email: session.email,
    name: session.name,
    instanceOwner: session.instanceOwner,
    sessionTokenHash: hash,
    csrfToken: session.csrfToken,
  };
  return { caller, slidTo };
}

/**
 * Whether the request presents the admin secret. A wrong one counts towards the address's
 * throttle; an address past FAULTLINE_AUTH_MAX_FAILURES is answered 429 whatever it presents, until
 * its window ends. A project key (`flk_…`) is not a guess at the secret: the CI reads take keys.
 */
function presentsAdminSecret(req: Request): boolean {
  const c = config();
  const presented = presentedSecret(req);
  if (!c.adminSecret || presented === null || looksLikeKey(presented)) return false;
  const client = clientAddress(req, c.trustProxy);
  const throttle = authThrottle("admin secret", c.authMaxFailures, c.authWindowMs);
  const wait = throttle.blockedFor(client);
  if (wait > 0) throw new ApiError("rate_limited", "too many failed admin secret attempts from this address; retry later", undefined, { "Retry-After": String(wait) });
  if (timingSafeEqual(digest(presented), digest(c.adminSecret))) return true;
  throttle.fail(client);
  return false;
}

async function resolve(req: Request, slide: boolean): Promise<Resolution> {
  const session = await sessionCaller(req, slide);
  if (session) return session;
  if (presentsAdminSecret(req)) return { caller: { kind: "admin-secret" }, slidTo: null };
  if (!config().adminSecret && !(await accountsExist())) return { caller: { kind: "open" }, slidTo: null };
  return { caller: null, slidTo: null };
}

const resolved = new WeakMap<Request, Promise<Resolution>>();

/**
 * Resolves the caller once per request object: a live session cookie first (a signed-in browser),
 * then the admin secret (scripts), then setup mode. A rate-limited admin secret throws the 429.
 * Only the proxy passes `slide`: it is the one that can send the renewed cookies, so a session the
 * route layer slid would outlive the cookie the browser keeps.
 */
export function resolveCaller(req: Request, options: { slide?: boolean } = {}): Promise<Resolution> {
  let found = resolved.get(req);
  if (!found) {
    found = resolve(req, options.slide === true);
    resolved.set(req, found);
  }
  return found;
}

/** The caller, or null for an anonymous request. */
export async function callerOf(req: Request): Promise<Caller | null> {
  return (await resolveCaller(req)).caller;
}

/** The 401 of a request that needs a caller. */
export function signInRequired(): ApiError {
  const secret = config().adminSecret ? " or send the admin secret (HTTP Basic password or Authorization: Bearer)" : "";
  return new ApiError("unauthorized", `sign in first${secret}`, undefined, { "WWW-Authenticate": 'Bearer realm="faultline"' });
}

/** The caller; 401 unauthorized when anonymous. */
export async function requireCaller(req: Request): Promise<Caller> {
  const caller = await callerOf(req);
  if (!caller) throw signInRequired();
  return caller;
}

/** True for callers that act as owner of every project: an instance owner, the admin secret, setup mode. */
export const isInstanceLevel = (caller: Caller): boolean => caller.kind !== "user" || caller.instanceOwner;

/** The caller's role in a project, or null when the project does not exist or the caller is not a member. Instance owners act as owner of every project. */
export async function projectRoleOf(caller: Caller, projectId: string): Promise<ProjectRole | null> {
  const store = await getStore();
  if (isInstanceLevel(caller)) return (await projectExists(store, projectId)) ? "owner" : null;
  return findMembershipRole(store, projectId, (caller as Extract<Caller, { kind: "user" }>).userId);
}

/**
 * The caller's role in a project when it is at least `minimum`. Not a member (or no such project):
 * 404 with `notFound` (default `project <id> not found`), so a row's or project's existence is never
 * revealed to an outsider; a member with a weaker role: 403.
 */
export async function checkProjectRole(caller: Caller, projectId: string, minimum: ProjectRole, notFound?: string): Promise<ProjectRole> {
  const role = await projectRoleOf(caller, projectId);
  if (role === null) throw new ApiError("not_found", notFound ?? `project ${projectId} not found`);
  requireRole(role, minimum, projectId);
  return role;
}

/** 403 forbidden when a member's `role` in `projectId` is below `minimum`. */
export function requireRole(role: ProjectRole, minimum: ProjectRole, projectId: string): void {
  if (!roleAtLeast(role, minimum)) throw new ApiError("forbidden", `this needs the ${minimum} role or a stronger one in project ${projectId}; yours is ${role}`);
}

/** The actor columns of an audit entry for this caller: a user's id and email, or `admin secret` / `setup mode`. */
export function actorOf(caller: Caller): { actorUserId: string | null; actorLabel: string } {
  if (caller.kind === "user") return { actorUserId: caller.userId, actorLabel: caller.email };
  return { actorUserId: null, actorLabel: caller.kind === "admin-secret" ? "admin secret" : "setup mode" };
}
