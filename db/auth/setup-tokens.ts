import type { Executor } from "../client";

/** Stores a setup link's token (its hash). */
export async function createSetupToken(db: Executor, tokenHash: string, now: number, expiresAt: number): Promise<void> {
  await db.run("INSERT INTO setup_tokens (token_hash, created_at, expires_at) VALUES (?, ?, ?)", [tokenHash, now, expiresAt]);
}

/** Whether a setup link can still be used (not used, not expired). */
export async function setupTokenUsable(db: Executor, tokenHash: string, now: number): Promise<boolean> {
  return (await db.get<{ one: number }>("SELECT 1 AS one FROM setup_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?", [tokenHash, now])) !== undefined;
}

/** Uses a setup link once: answers false when it was used, expired or never issued (only one caller wins a race). */
export async function useSetupToken(db: Executor, tokenHash: string, now: number): Promise<boolean> {
  return (await db.run("UPDATE setup_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?", [now, tokenHash, now])) > 0;
}

/**
 * Spends every setup link still open. Using one link ends the others: a link printed by an earlier
 * start (or lost in a shipped log) must not be able to make another instance owner, or reset the
 * owner's password, after setup. Answers how many were spent.
 */
export async function spendOpenSetupTokens(db: Executor, now: number): Promise<number> {
  return db.run("UPDATE setup_tokens SET used_at = ? WHERE used_at IS NULL", [now]);
}
