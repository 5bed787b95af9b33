// Team access from a test's side: signing in over HTTP (the real endpoint and cookies), accounts
// created straight in the database, and requests made as a signed-in browser would make them
// (session cookie, the CSRF header, a same-origin Origin).
import { expect } from "vitest";
import { addMembership } from "@/db/auth/memberships";
import { createUser, type UserRow } from "@/db/auth/users";
import type { Store } from "@/db/client";
import type { ProjectRole } from "@/lib/auth/roles";
import { hashPassword } from "@/server/auth/password";

/** The password every seeded account gets. */
export const PASSWORD = "correct horse battery staple";

/** A browser's cookies and CSRF token after signing in. */
export interface Session {
  cookie: string;
  csrf: string;
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
export function cookiesOf(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string]));
}

/** The session a sign-in, setup or invitation answer opened. */
export function sessionOf(res: Response): Session {
  const c = cookiesOf(res);
  expect(c.faultline_session, "the answer opens a session").toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { cookie: `faultline_session=${c.faultline_session}; faultline_csrf=${c.faultline_csrf}`, csrf: c.faultline_csrf! };
}

/** POST /api/v1/auth/sign-in; `from` sets X-Forwarded-For (the server must trust it: FAULTLINE_TRUST_PROXY=1). */
export function postSignIn(url: string, email: string, password: string, from?: string): Promise<Response> {
  return fetch(`${url}/api/v1/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(from ? { "x-forwarded-for": from } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

/** Signs in and answers the session (fails the test unless the sign-in succeeds). */
export async function signIn(url: string, email: string, password = PASSWORD): Promise<Session> {
  const res = await postSignIn(url, email, password);
  expect(res.status, `sign-in of ${email}`).toBe(200);
  return sessionOf(res);
}

/** Request options as a signed-in browser sends them: cookies, and for a change the CSRF header and a JSON body. */
export function asSession(session: Session, method = "GET", body?: unknown, extra: Record<string, string> = {}): RequestInit {
  const headers: Record<string, string> = { cookie: session.cookie, ...extra };
  if (method !== "GET") headers["x-faultline-csrf"] = session.csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  return { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), redirect: "manual" };
}

/** An account made straight in the database (scrypt-hashed), with memberships. */
export async function seedUser(store: Store, email: string, memberships: Record<string, ProjectRole> = {}, options: { instanceOwner?: boolean; name?: string } = {}): Promise<UserRow> {
  const passwordHash = await hashPassword(PASSWORD);
  return store.transaction(async (tx) => {
    const user = await createUser(tx, { email, name: options.name ?? email.split("@")[0]!, passwordHash, instanceOwner: options.instanceOwner ?? false, now: Date.now() });
    for (const [project, role] of Object.entries(memberships)) await addMembership(tx, project, user.id, role, Date.now());
    return user;
  });
}

/** The setup link a fresh server printed at start. */
export function setupLinkOf(output: string): URL {
  const match = output.match(/http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{43}/g);
  expect(match, "the server printed a setup link").not.toBeNull();
  return new URL(match!.at(-1)!);
}
