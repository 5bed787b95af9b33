import type { Executor } from "../client";

/** A live session with its account, as one sign-in check reads it. */
export interface SessionRow {
  tokenHash: string;
  userId: string;
  csrfToken: string;
  lastSeenAt: number;
  expiresAt: number;
  email: string;
  name: string;
  instanceOwner: boolean;
  disabledAt: number | null;
}

/** Stores a new session (only the hash of its cookie token). */
export async function insertSession(
  db: Executor,
  s: { tokenHash: string; userId: string; csrfToken: string; now: number; expiresAt: number; address: string | null; userAgent: string | null; method: "password" | "oidc" },
): Promise<void> {
  await db.run(
    "INSERT INTO sessions (token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at, address, user_agent, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [s.tokenHash, s.userId, s.csrfToken, s.now, s.now, s.expiresAt, s.address, s.userAgent, s.method],
  );
}

/** The session of a cookie token's hash with its account, expired or not (the caller decides). */
export async function findSession(db: Executor, tokenHash: string): Promise<SessionRow | null> {
  const row = await db.get<Omit<SessionRow, "instanceOwner"> & { instanceOwner: number }>(
    `SELECT s.token_hash AS "tokenHash", s.user_id AS "userId", s.csrf_token AS "csrfToken", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt",
            u.email, u.name, u.instance_owner AS "instanceOwner", u.disabled_at AS "disabledAt"
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ?`,
    [tokenHash],
  );
  if (!row) return null;
  return {
    ...row,
    lastSeenAt: Number(row.lastSeenAt),
    expiresAt: Number(row.expiresAt),
    instanceOwner: Number(row.instanceOwner) === 1,
    disabledAt: row.disabledAt === null ? null : Number(row.disabledAt),
  };
}

/**
 * Slides a session's expiry. The condition repeats the staleness check, so nodes (or requests) that
 * see the same session at once write it once; answers whether this call wrote.
 */
export async function touchSession(db: Executor, tokenHash: string, now: number, expiresAt: number, staleBefore: number): Promise<boolean> {
  return (await db.run("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ? AND last_seen_at < ? AND expires_at > ?", [now, expiresAt, tokenHash, staleBefore, now])) > 0;
}

/** Ends one session; answers whether it existed. */
export async function deleteSession(db: Executor, tokenHash: string): Promise<boolean> {
  return (await db.run("DELETE FROM sessions WHERE token_hash = ?", [tokenHash])) > 0;
}

/** Ends every session of an account; answers how many there were. */
export async function deleteUserSessions(db: Executor, userId: string): Promise<number> {
  return db.run("DELETE FROM sessions WHERE user_id = ?", [userId]);
}

/** Forgets an account's expired sessions (done at each sign-in, so they do not pile up). */
export async function deleteExpiredUserSessions(db: Executor, userId: string, now: number): Promise<number> {
  return db.run("DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?", [userId, now]);
}
