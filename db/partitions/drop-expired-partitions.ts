import type { PgStore, PgTx } from "../store/types";
import { PARTITION_DDL_LOCK } from "../store/locks";
import { listPartitions } from "./list-partitions";
import { PARTITIONED_TABLES, PARTITION_LOCK_TIMEOUT, defaultPartitionName, partitionName } from "./partitioned-tables";

const LOCK_NOT_AVAILABLE = "55P03";

/** What one retention pass removed: whole daily partitions, and rows of either table in total. */
export interface DropResult {
  dropped: number;
  rows: number;
}

/**
 * Retention on PostgreSQL: drops every daily partition of tool_call_spans and tool_errors whose day
 * ends at or before `cutoffMs` (counting its rows first), and deletes the rows older than the cutoff
 * from the DEFAULT partitions, the only place rows are deleted one by one. A partition whose lock
 * is busy is left for the next run. Only partitions named as ensurePartitions names them are dropped.
 */
export async function dropExpiredPartitions(store: PgStore, cutoffMs: number): Promise<DropResult> {
  const result: DropResult = { dropped: 0, rows: 0 };
  for (const p of await listPartitions(store)) {
    if (p.fromMs === null || p.toMs === null || p.toMs > cutoffMs || p.name !== partitionName(p.table, p.fromMs)) continue;
    const rows = await dropPartition(store, p.table, p.name);
    if (rows === null) continue;
    result.dropped++;
    result.rows += rows;
  }
  for (const { table, timeColumn } of PARTITIONED_TABLES) {
    result.rows += await store.run(`DELETE FROM "${defaultPartitionName(table)}" WHERE "${timeColumn}" < @cutoff`, { cutoff: cutoffMs });
  }
  return result;
}

/** Rows the dropped partition held, or null when it was not dropped (gone already, or locks busy). */
async function dropPartition(store: PgStore, table: string, name: string): Promise<number | null> {
  try {
    return await store.transaction(async (t) => {
      const tx = t as PgTx;
      await tx.run(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
      await tx.run(`SELECT pg_advisory_xact_lock(${PARTITION_DDL_LOCK})`);
      if (!(await tx.get(`SELECT 1 FROM pg_class WHERE oid = to_regclass('"${name}"')`))) return null;
      // DROP needs this lock on the parent; taking it before touching the partition keeps the order
      // every query uses (parent, then partition), so no insert can deadlock with the drop, and the
      // count below is exact because nothing can write to the table until the drop commits.
      await tx.run(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
      const counted = await tx.get<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`);
      await tx.run(`DROP TABLE "${name}"`);
      return counted?.n ?? 0;
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return null;
    throw error;
  }
}
