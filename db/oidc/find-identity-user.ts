import type { UserRow } from "../auth/users";
import type { Executor } from "../client";

interface Row {
  id: string;
  email: string;
  name: string;
  instance_owner: number;
  created_at: number;
  disabled_at: number | null;
}

/** The user a single-sign-on identity (issuer + subject) is linked to, or null when it is new. */
export async function findIdentityUser(db: Executor, issuer: string, subject: string): Promise<UserRow | null> {
  const row = await db.get<Row>(
    `SELECT u.id, u.email, u.name, u.instance_owner, u.created_at, u.disabled_at
       FROM oidc_identities i JOIN users u ON u.id = i.user_id
      WHERE i.issuer = ? AND i.subject = ?`,
    [issuer, subject],
  );
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    instanceOwner: Number(row.instance_owner) === 1,
    createdAt: Number(row.created_at),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  };
}
