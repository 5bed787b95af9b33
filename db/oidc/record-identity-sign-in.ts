import type { Executor } from "../client";

/** Notes a sign-in through a linked identity, with the email the provider gives for it today. */
export async function recordIdentitySignIn(db: Executor, issuer: string, subject: string, email: string, now: number): Promise<void> {
  await db.run("UPDATE oidc_identities SET email = ?, last_sign_in_at = ? WHERE issuer = ? AND subject = ?", [email, now, issuer, subject]);
}
