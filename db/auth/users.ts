import { randomUUID } from "node:crypto";
import type { Executor } from "../client";

/** A dashboard account as the server reasons about it (never its password hash). */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  instanceOwner: boolean;
  createdAt: number;
  disabledAt: number | null;
}

/** What a password sign-in checks besides the account itself. */
export interface UserCredentials extends UserRow {
  passwordHash: string | null;
  failedSignIns: number;
  signInBlockedUntil: number | null;
}

interface RawUser {
  id: string;
  email: string;
  name: string;
  instanceOwner: number;
  createdAt: number;
  disabledAt: number | null;
}

const COLUMNS = `id, email, name, instance_owner AS "instanceOwner", created_at AS "createdAt", disabled_at AS "disabledAt"`;

const toUser = (r: RawUser): UserRow => ({
  id: r.id,
  email: r.email,
  name: r.name,
  instanceOwner: Number(r.instanceOwner) === 1,
  createdAt: Number(r.createdAt),
  disabledAt: r.disabledAt === null ? null : Number(r.disabledAt),
});

/** The account with this email (compared lowercased), or null. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const row = await db.get<RawUser>(`SELECT ${COLUMNS} FROM users WHERE email = ?`, [email.trim().toLowerCase()]);
  return row ? toUser(row) : null;
}

/** The account with this id, or null. */
export async function findUserById(db: Executor, id: string): Promise<UserRow | null> {
  const row = await db.get<RawUser>(`SELECT ${COLUMNS} FROM users WHERE id = ?`, [id]);
  return row ? toUser(row) : null;
}

/** The account and its password state, for a sign-in attempt. */
export async function findUserCredentials(db: Executor, email: string): Promise<UserCredentials | null> {
  const row = await db.get<RawUser & { passwordHash: string | null; failedSignIns: number; signInBlockedUntil: number | null }>(
    `SELECT ${COLUMNS}, password_hash AS "passwordHash", failed_sign_ins AS "failedSignIns", sign_in_blocked_until AS "signInBlockedUntil" FROM users WHERE email = ?`,
    [email.trim().toLowerCase()],
  );
  if (!row) return null;
  return {
    ...toUser(row),
    passwordHash: row.passwordHash,
    failedSignIns: Number(row.failedSignIns),
    signInBlockedUntil: row.signInBlockedUntil === null ? null : Number(row.signInBlockedUntil),
  };
}

/**
 * Creates an account (id = a random UUID, email lowercased). A taken email makes the insert fail
 * with the engine's unique-constraint error: callers check with `findUserByEmail` first, in the
 * same transaction.
 */
export async function createUser(db: Executor, user: { email: string; name: string; passwordHash: string | null; instanceOwner: boolean; now: number }): Promise<UserRow> {
  const id = randomUUID();
  await db.run("INSERT INTO users (id, email, name, password_hash, instance_owner, created_at) VALUES (?, ?, ?, ?, ?, ?)", [
    id,
    user.email.trim().toLowerCase(),
    user.name,
    user.passwordHash,
    user.instanceOwner ? 1 : 0,
    user.now,
  ]);
  return { id, email: user.email.trim().toLowerCase(), name: user.name, instanceOwner: user.instanceOwner, createdAt: user.now, disabledAt: null };
}

/** How many accounts exist (none: the instance is in setup mode). */
export async function countUsers(db: Executor): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM users");
  return Number(row?.n ?? 0);
}

/** Every account, oldest first (the command line lists them). */
export async function listUsers(db: Executor): Promise<UserRow[]> {
  return (await db.all<RawUser>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, id`)).map(toUser);
}

/**
 * Counts one more failed password and answers the new count. The increment happens in SQL, so
 * concurrent failures on several nodes all count. Run it in a transaction (it reads its own write).
 */
export async function countFailedSignIn(db: Executor, userId: string): Promise<number> {
  await db.run("UPDATE users SET failed_sign_ins = failed_sign_ins + 1 WHERE id = ?", [userId]);
  const row = await db.get<{ n: number }>("SELECT failed_sign_ins AS n FROM users WHERE id = ?", [userId]);
  return Number(row?.n ?? 0);
}

/** Refuses password sign-ins to an account until a time. */
export async function blockSignIns(db: Executor, userId: string, until: number): Promise<void> {
  await db.run("UPDATE users SET sign_in_blocked_until = ? WHERE id = ?", [until, userId]);
}

/** A successful sign-in forgets the failures before it. */
export async function clearFailedSignIns(db: Executor, userId: string): Promise<void> {
  await db.run("UPDATE users SET failed_sign_ins = 0, sign_in_blocked_until = NULL WHERE id = ? AND (failed_sign_ins <> 0 OR sign_in_blocked_until IS NOT NULL)", [userId]);
}

/** Replaces the password hash (a rehash with stronger parameters, or a new password). */
export async function setUserPassword(db: Executor, userId: string, passwordHash: string): Promise<void> {
  await db.run("UPDATE users SET password_hash = ? WHERE id = ?", [passwordHash, userId]);
}

/**
 * A setup link used for an existing account (a locked-out admin): it becomes an instance owner again,
 * enabled and unblocked, with the new name and password.
 */
export async function restoreInstanceOwner(db: Executor, userId: string, update: { name: string; passwordHash: string }): Promise<void> {
  await db.run(
    "UPDATE users SET name = ?, password_hash = ?, instance_owner = 1, disabled_at = NULL, failed_sign_ins = 0, sign_in_blocked_until = NULL WHERE id = ?",
    [update.name, update.passwordHash, userId],
  );
}

/** Disables (a time) or re-enables (null) an account; answers whether the account exists. */
export async function setUserDisabled(db: Executor, userId: string, disabledAt: number | null): Promise<boolean> {
  return (await db.run("UPDATE users SET disabled_at = ? WHERE id = ?", [disabledAt, userId])) > 0;
}
