import type { Executor } from "../client";

/** Links a single-sign-on identity to a user; it counts as that user's first sign-in through it. */
export async function linkIdentity(db: Executor, identity: { issuer: string; subject: string; userId: string; email: string; now: number }): Promise<void> {
  await db.run("INSERT INTO oidc_identities (issuer, subject, user_id, email, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?, ?)", [
    identity.issuer,
    identity.subject,
    identity.userId,
    identity.email,
    identity.now,
    identity.now,
  ]);
}
