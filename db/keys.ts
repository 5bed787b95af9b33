import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Executor, Store } from "./client";
import { createDefaultAlertRules } from "./alerts/rules";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_SHAPE = /^flk_([0-9A-Za-z]{8})_([0-9A-Za-z]{32})$/;

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  // Rejection sampling keeps the alphabet uniform (248 = 4 * 62).
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

/** `ingest` keys write telemetry; `read` keys (for a CI gate) only read the gate and the code contract. */
export type KeyScope = "ingest" | "read";

/** A key as listed: everything but its hash. */
export interface KeyInfo {
  id: number;
  scope: KeyScope;
  projectId: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** Creates a key (an ingest key unless told otherwise); the clear key is returned once and never stored. */
export async function createKey(db: Executor, projectId: string, name: string, scope: KeyScope = "ingest", now: number = Date.now()): Promise<KeyInfo & { key: string }> {
  const prefix = `flk_${randomBase62(8)}`;
  const key = `${prefix}_${randomBase62(32)}`;
  const id = await db.get<{ id: number | string }>("INSERT INTO api_keys (project_id, name, prefix, hash, created_at, scope) VALUES (?, ?, ?, ?, ?, ?) RETURNING id", [
    projectId,
    name,
    prefix,
    sha256(key),
    now,
    scope,
  ]);
  return { id: Number(id?.id), scope, projectId, name, prefix, createdAt: now, lastUsedAt: null, revokedAt: null, key };
}

const KEY_COLUMNS = `id, scope, project_id AS "projectId", name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/** Lists keys (never their secret part), oldest first. */
export async function listKeys(db: Executor, projectId?: string): Promise<KeyInfo[]> {
  return projectId === undefined
    ? db.all<KeyInfo>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`)
    : db.all<KeyInfo>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE project_id = ? ORDER BY id`, [projectId]);
}

/** The key with this visible prefix (of any project, revoked or not), or null. */
export async function findKey(db: Executor, prefix: string): Promise<KeyInfo | null> {
  return (await db.get<KeyInfo>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE prefix = ?`, [prefix])) ?? null;
}

/** Revokes a key by its visible prefix. Returns false when no active key has that prefix. */
export async function revokeKey(db: Executor, prefix: string, now: number = Date.now()): Promise<boolean> {
  return (await db.run("UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL", [now, prefix])) > 0;
}

// last_used_at is informational; writing it on every request would add a write per ingest call.
const LAST_USED_RESOLUTION_MS = 60_000;

interface StoredKey {
  id: number;
  scope: KeyScope;
  projectId: string;
  hash: string;
  lastUsedAt: number | null;
  revokedAt: number | null;
  archivedAt: number | null;
}

/** A verified key: its project, its scope, and whether the project is archived (its ingest is closed). */
export interface VerifiedKey {
  projectId: string;
  scope: KeyScope;
  archived: boolean;
}

/** Resolves a presented key to its project and scope, or null. Compares hashes in constant time. */
export async function verifyKey(db: Executor, presented: string): Promise<VerifiedKey | null> {
  const match = KEY_SHAPE.exec(presented);
  if (!match) return null;
  const row = await db.get<StoredKey>(
    `SELECT k.id, k.scope, k.project_id AS "projectId", k.hash, k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt", p.archived_at AS "archivedAt"
     FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.prefix = ?`,
    [`flk_${match[1]}`],
  );
  if (!row || row.revokedAt !== null) return null;
  const expected = Buffer.from(row.hash, "hex");
  const actual = Buffer.from(sha256(presented), "hex");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const now = Date.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    // The condition repeats the check, so nodes verifying the same key at once write it once.
    await db.run("UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)", [
      now,
      row.id,
      now - LAST_USED_RESOLUTION_MS,
    ]);
  }
  return { projectId: row.projectId, scope: row.scope, archived: row.archivedAt !== null };
}

/** True when `presented` has the shape of a project key, so a reader can tell a key from the admin secret. */
export const looksLikeKey = (presented: string) => KEY_SHAPE.test(presented);

export const DEFAULT_PROJECT_ID = "default";

/**
 * Creates the default project and its first key on an empty database. Returns the new key when one
 * was created, so the caller can print it once. Safe when several nodes start together: the
 * project's insert decides which one creates the key.
 */
export async function ensureDefaultProject(store: Store): Promise<{ key: string; prefix: string } | null> {
  return store.transaction(async (tx) => {
    if ((await tx.get<{ one: number }>("SELECT 1 AS one FROM projects LIMIT 1")) !== undefined) return null;
    const inserted = await tx.run("INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", [
      DEFAULT_PROJECT_ID,
      "Default project",
      Date.now(),
    ]);
    if (inserted === 0) return null;
    await createDefaultAlertRules(tx, DEFAULT_PROJECT_ID, Date.now());
    return createKey(tx, DEFAULT_PROJECT_ID, "default ingest key");
  });
}

/**
 * Creates a project with the default alert rules. Answers false, changing nothing, when the id is
 * taken: two creates racing for one id get one project, and the loser can answer a conflict.
 */
export async function createProject(db: Executor, id: string, name: string, now = Date.now()): Promise<boolean> {
  if ((await db.run("INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", [id, name, now])) === 0) return false;
  await createDefaultAlertRules(db, id, now);
  return true;
}

/** Lists projects by id. */
export async function listProjects(db: Executor): Promise<{ id: string; name: string }[]> {
  return db.all<{ id: string; name: string }>("SELECT id, name FROM projects ORDER BY id");
}

/** Whether a project exists. */
export async function projectExists(db: Executor, id: string): Promise<boolean> {
  return (await db.get<{ one: number }>("SELECT 1 AS one FROM projects WHERE id = ?", [id])) !== undefined;
}
