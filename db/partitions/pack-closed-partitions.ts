import type { PgStore } from "../store/types";
import { listPartitions } from "./list-partitions";
import { partitionName } from "./partitioned-tables";

// Ingest grows the partitions' B-trees by page splits, which leave pages half full wherever keys
// arrive in ascending order inside a key range (sequential ids of one project: every split is a
// middle split, and the left half is never filled again). Built once, the same indexes take about
// 40 % less (docs/ingest-performance.md, "Storage per span"). A day's partition takes few rows once
// the day is over, so its indexes are built again once, packed full: leaf fill factor 100, the
// text-search GIN index with its pending list merged.

/** How long after its day ends a partition is packed: rows of a day still arrive late for a while (buffered, retried). */
export const PACK_AFTER_MS = 6 * 3_600_000;

/** How long one rebuild waits by default for a lock (a schema change, or transactions older than it) before it is left for the next run. */
const PACK_LOCK_TIMEOUT = "30s";

/**
 * Partitions whose indexes take less are left as they are until they grow (a backfill may fill a
 * past day later): rebuilding them would gain a few pages for a round of catalog work each.
 */
const PACK_MIN_INDEX_BYTES = 1 << 20;

/** How a pass waits, and what it leaves. */
export interface PackOptions {
  /** PostgreSQL `lock_timeout` for each partition's statements (default 30s). */
  lockTimeout?: string;
  /** Partitions whose indexes take fewer bytes are not packed yet (default 1 MiB). */
  minIndexBytes?: number;
}

const LOCK_NOT_AVAILABLE = "55P03";
const UNDEFINED_TABLE = "42P01";

/** What one pass did: partitions packed, and those left for the next run (busy locks, or dropped meanwhile). */
export interface PackResult {
  packed: number;
  left: number;
}

/**
 * Builds again the indexes of every daily partition of the raw tables whose day ended at least
 * PACK_AFTER_MS before `nowMs`, is not packed yet and whose indexes take at least `minIndexBytes`,
 * without blocking reads or writes (`REINDEX INDEX … CONCURRENTLY`). A packed partition is marked by
 * its table's explicit `fillfactor = 100` (the default, so the mark changes nothing else), set only
 * once its indexes are rebuilt: a pass cut short is done again. Rows inserted later split pages again; the data and every plan are unchanged.
 */
export async function packClosedPartitions(store: PgStore, nowMs: number, options: PackOptions = {}): Promise<PackResult> {
  const result: PackResult = { packed: 0, left: 0 };
  const due = (await listPartitions(store)).filter(
    (p) => p.fromMs !== null && p.toMs !== null && p.toMs + PACK_AFTER_MS <= nowMs && p.name === partitionName(p.table, p.fromMs),
  );
  if (due.length === 0) return result;
  // Partitions not packed yet whose indexes are worth it.
  const todo = new Set(
    (
      await store.all<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c
         WHERE c.relname = ANY(?::text[]) AND c.relkind = 'r' AND NOT 'fillfactor=100' = ANY(coalesce(c.reloptions, '{}'))
           AND (SELECT coalesce(sum(pg_relation_size(x.indexrelid)), 0) FROM pg_index x WHERE x.indrelid = c.oid) >= ?`,
        [due.map((p) => p.name), options.minIndexBytes ?? PACK_MIN_INDEX_BYTES],
      )
    ).map((r) => r.name),
  );
  if (todo.size === 0) return result;
  // REINDEX CONCURRENTLY cannot run in a transaction: one connection of its own, its settings its own.
  const client = await store.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(`SET lock_timeout = '${options.lockTimeout ?? PACK_LOCK_TIMEOUT}'`);
    for (const p of due) {
      if (!todo.has(p.name)) continue;
      try {
        await dropUnfinishedCopies(client, p.name);
        // Index by index: REINDEX TABLE would rebuild the TOAST table's index too, for nothing.
        const indexes = await client.query<{ name: string; btree: boolean }>(
          `SELECT i.relname AS name, a.amname = 'btree' AS btree FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am a ON a.oid = i.relam
           WHERE x.indrelid = to_regclass($1) AND x.indisvalid ORDER BY i.relname`,
          [`"${p.name}"`],
        );
        for (const i of indexes.rows) {
          if (i.btree) await client.query(`ALTER INDEX "${i.name}" SET (fillfactor = 100)`);
          await client.query(`REINDEX INDEX CONCURRENTLY "${i.name}"`);
        }
        await client.query(`ALTER TABLE "${p.name}" SET (fillfactor = 100)`);
        result.packed++;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== LOCK_NOT_AVAILABLE && code !== UNDEFINED_TABLE) throw error;
        result.left++;
        // Dropping waits for the same transactions: if it gives up too, the next pass drops them first.
        await dropUnfinishedCopies(client, p.name).catch((e: unknown) => {
          if ((e as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw e;
        });
      }
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
  return result;
}

/**
 * A concurrent rebuild stopped part-way leaves a copy of the index behind, invalid: the new one
 * (`<index>_ccnew`, kept up to date by every insert) or, past the swap, the old one (`_ccold`).
 * Both are dropped, so a pass starts clean.
 */
async function dropUnfinishedCopies(client: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }, table: string): Promise<void> {
  const left = (await client.query(
    `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = to_regclass($1) AND NOT x.indisvalid AND (i.relname LIKE '%\\_ccnew%' OR i.relname LIKE '%\\_ccold%')`,
    [`"${table}"`],
  )).rows as { name: string }[];
  for (const i of left) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${i.name}"`);
}
