import type { Executor } from "../client";

/** The subject a user is already linked to at this issuer, or null (one identity per user and issuer). */
export async function findUserSubject(db: Executor, userId: string, issuer: string): Promise<string | null> {
  const row = await db.get<{ subject: string }>("SELECT subject FROM oidc_identities WHERE user_id = ? AND issuer = ? ORDER BY subject LIMIT 1", [userId, issuer]);
  return row?.subject ?? null;
}
