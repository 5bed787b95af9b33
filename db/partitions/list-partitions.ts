import type { PgStore, PgTx } from "../store/types";
import { PARTITIONED_TABLES, type PartitionedTable } from "./partitioned-tables";

/** One partition of a partitioned raw table; `fromMs`/`toMs` are null for the DEFAULT partition. */
export interface PartitionInfo {
  table: PartitionedTable;
  name: string;
  fromMs: number | null;
  toMs: number | null;
}

// pg_get_expr prints a bigint range bound as FOR VALUES FROM ('1735689600000') TO ('1735776000000').
const RANGE = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/;

/** Every partition of tool_call_spans and tool_errors: by table, the daily ones by day, then the DEFAULT one. */
export async function listPartitions(store: PgStore | PgTx): Promise<PartitionInfo[]> {
  const parents = PARTITIONED_TABLES.map((t) => `'${t.table}'`).join(", ");
  const rows = await store.all<{ parent: PartitionedTable; name: string; bound: string }>(
    `SELECT p.relname AS parent, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i
     JOIN pg_class p ON p.oid = i.inhparent
     JOIN pg_class c ON c.oid = i.inhrelid
     WHERE p.oid IN (SELECT to_regclass(t) FROM unnest(ARRAY[${parents}]) AS t)
     ORDER BY p.relname, c.relpartbound IS NOT NULL AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT', c.relname`,
  );
  return rows.map((r) => {
    const m = RANGE.exec(r.bound);
    return { table: r.parent, name: r.name, fromMs: m ? Number(m[1]) : null, toMs: m ? Number(m[2]) : null };
  });
}
