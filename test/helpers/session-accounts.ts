// Accounts made straight in the database: a user, their memberships and a live session with the
// cookie values a sign-in sets (`faultline_session`, `faultline_csrf`), for tests of what a signed-in
// user does rather than of signing in (test/helpers/team.ts signs in through the API).
import { createHash, randomBytes } from "node:crypto";
import { addMembership } from "@/db/auth/memberships";
import { createUser } from "@/db/auth/users";
import type { Store } from "@/db/client";
import type { ProjectRole } from "@/lib/auth/roles";

export interface TestAccount {
  userId: string;
  email: string;
  /** The session cookie's token (only its SHA-256 is stored). */
  sessionToken: string;
  csrfToken: string;
  /** Headers of a signed-in request: the two cookies, and the CSRF header a mutation needs. */
  headers: (options?: { csrf?: boolean }) => Record<string, string>;
  /** The two cookies for a browser context on `url`. */
  cookies: (url: string) => { name: string; value: string; url: string; httpOnly: boolean; sameSite: "Lax" }[];
}

const HOUR = 3_600_000;

/** A user with the given memberships (and instance-owner flag) and a session valid for an hour. */
export async function createAccount(
  store: Store,
  spec: { email: string; name?: string; instanceOwner?: boolean; memberships?: [projectId: string, role: ProjectRole][]; expiresInMs?: number },
): Promise<TestAccount> {
  const now = Date.now();
  const user = await createUser(store, { email: spec.email, name: spec.name ?? spec.email.split("@")[0]!, passwordHash: null, instanceOwner: spec.instanceOwner ?? false, now });
  for (const [projectId, role] of spec.memberships ?? []) await addMembership(store, projectId, user.id, role, now);
  const sessionToken = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(24).toString("base64url");
  await store.run(
    "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at, address, user_agent, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [createHash("sha256").update(sessionToken).digest("hex"), user.id, csrfToken, now, now, now + (spec.expiresInMs ?? HOUR), "127.0.0.1", "test", "password"],
  );
  const cookie = `faultline_session=${sessionToken}; faultline_csrf=${csrfToken}`;
  return {
    userId: user.id,
    email: user.email,
    sessionToken,
    csrfToken,
    headers: ({ csrf = true } = {}) => ({ cookie, ...(csrf ? { "x-faultline-csrf": csrfToken } : {}) }),
    cookies: (url) => [
      { name: "faultline_session", value: sessionToken, url, httpOnly: true, sameSite: "Lax" },
      { name: "faultline_csrf", value: csrfToken, url, httpOnly: false, sameSite: "Lax" },
    ],
  };
}
