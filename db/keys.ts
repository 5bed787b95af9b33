import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Store } from "./client";
import { apiKeys, projects } from "./schema";

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

export interface KeyInfo {
  id: number;
  projectId: string;
  name: string;
  prefix: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** Creates an ingest key; the clear key is returned once and never stored. */
export function createKey(store: Store, projectId: string, name: string): { key: string; prefix: string } {
  const prefix = `flk_${randomBase62(8)}`;
  const key = `${prefix}_${randomBase62(32)}`;
  store.db
    .insert(apiKeys)
    .values({ projectId, name, prefix, hash: sha256(key), createdAt: Date.now() })
    .run();
  return { key, prefix };
}

/** Lists keys (never their secret part), oldest first. */
export function listKeys(store: Store, projectId?: string): KeyInfo[] {
  const rows = store.db
    .select()
    .from(apiKeys)
    .where(projectId ? eq(apiKeys.projectId, projectId) : undefined)
    .orderBy(asc(apiKeys.id))
    .all();
  return rows.map(({ hash: _hash, ...info }) => info);
}

/** Revokes a key by its visible prefix. Returns false when no active key has that prefix. */
export function revokeKey(store: Store, prefix: string): boolean {
  const result = store.db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt)))
    .run();
  return result.changes > 0;
}

// last_used_at is informational; writing it on every request would add a write per ingest call.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves a presented key to its project, or null. Compares hashes in constant time. */
export function verifyKey(store: Store, presented: string): string | null {
  const match = KEY_SHAPE.exec(presented);
  if (!match) return null;
  const row = store.db.select().from(apiKeys).where(eq(apiKeys.prefix, `flk_${match[1]}`)).get();
  if (!row || row.revokedAt !== null) return null;
  const expected = Buffer.from(row.hash, "hex");
  const actual = Buffer.from(sha256(presented), "hex");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const now = Date.now();
  if (row.lastUsedAt === null || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    store.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id)).run();
  }
  return row.projectId;
}

export const DEFAULT_PROJECT_ID = "default";

/**
 * Creates the default project and its first key on an empty database. Returns the new key when one
 * was created, so the caller can print it once.
 */
export function ensureDefaultProject(store: Store): { key: string; prefix: string } | null {
  return store.sqlite.transaction(() => {
    const existing = store.db.select({ id: projects.id }).from(projects).limit(1).get();
    if (existing) return null;
    store.db.insert(projects).values({ id: DEFAULT_PROJECT_ID, name: "Default project", createdAt: Date.now() }).run();
    return createKey(store, DEFAULT_PROJECT_ID, "default ingest key");
  })();
}

/** Creates a project (for multi-project setups and tests). */
export function createProject(store: Store, id: string, name: string): void {
  store.db.insert(projects).values({ id, name, createdAt: Date.now() }).run();
}

/** Lists projects by id. */
export function listProjects(store: Store): { id: string; name: string }[] {
  return store.db.select({ id: projects.id, name: projects.name }).from(projects).orderBy(asc(projects.id)).all();
}
