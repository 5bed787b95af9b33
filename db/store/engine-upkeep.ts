import { probeWrite, quickCheck } from "../queries/get-health";
import { dropExpiredPartitions, ensurePartitions, packClosedPartitions } from "../partitions";
import type { Store } from "./types";

// What differs between the engines in looking after the storage, behind engine-neutral functions,
// so that server/ (jobs, health checks, boot) never branches on the engine.

/** What one upkeep step did: rows it handled and its answer, or why this engine has nothing to do. */
export interface UpkeepResult {
  rows: number;
  detail?: string;
  skipped?: string;
}

/** Whether the raw tables are partitioned by day (PostgreSQL), so partitions must be made ahead. */
export function hasPartitions(store: Store): boolean {
  return store.dialect === "postgres";
}

/**
 * Makes the daily partitions of the raw tables ahead (and `daysBack` days back), so that ingest finds
 * the day's partition rather than filling the DEFAULT one. SQLite tables are not partitioned.
 */
export async function ensurePartitionsAhead(store: Store, now: number, daysBack: number): Promise<UpkeepResult> {
  if (store.dialect !== "postgres") return { rows: 0, skipped: "SQLite tables are not partitioned" };
  return { rows: await ensurePartitions(store, now, daysBack) };
}

/**
 * Builds again, packed, the indexes of the daily partitions whose day is over (PostgreSQL: see
 * db/partitions/pack-closed-partitions.ts). SQLite's B-trees are not partitioned and fill their pages as they grow.
 */
export async function packClosedDays(store: Store, now: number): Promise<UpkeepResult> {
  if (store.dialect !== "postgres") return { rows: 0, skipped: "SQLite tables are not partitioned" };
  const r = await packClosedPartitions(store, now);
  return { rows: r.packed, detail: `${r.packed} closed daily partitions packed, ${r.left} left for the next run` };
}

/**
 * Retention's first step: whole expired days of raw rows, removed by dropping their partitions
 * (PostgreSQL). Returns the rows removed; on SQLite none, and run pruning removes expired rows.
 */
export async function dropExpiredDays(store: Store, cutoffMs: number): Promise<number> {
  return store.dialect === "postgres" ? (await dropExpiredPartitions(store, cutoffMs)).rows : 0;
}

/**
 * SQLite's quick_check of the whole file ("ok" or the problems found; a file too damaged to check
 * answers with SQLite's error code). PostgreSQL looks after its own storage.
 */
export function checkIntegrity(store: Store): UpkeepResult {
  if (store.dialect !== "sqlite") return { rows: 0, skipped: "PostgreSQL checks its own storage: no quick_check" };
  try {
    return { rows: 0, detail: quickCheck(store) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB"))) return { rows: 0, detail: code };
    throw error;
  }
}

/** The database file of an embedded (SQLite) store, which the server itself must watch. */
export interface EmbeddedFile {
  path: string;
  /** A committed write that waits for no lock: "busy" when another connection holds it; throws what the file or disk refuses. */
  probeWrite(): "written" | "busy";
}

/** The file behind the store, or null for a database server (PostgreSQL reports its own faults). */
export function embeddedFile(store: Store): EmbeddedFile | null {
  if (store.dialect !== "sqlite") return null;
  return { path: store.path, probeWrite: () => probeWrite(store) };
}

/** Where the data lives, for a log line: the SQLite file, or PostgreSQL and its URL without the password. */
export function describeStore(store: Store): string {
  return store.dialect === "sqlite" ? store.path : `PostgreSQL ${store.location}`;
}
