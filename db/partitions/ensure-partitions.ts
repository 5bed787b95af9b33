import type { PgStore, PgTx } from "../store/types";
import { PARTITION_DDL_LOCK } from "../store/locks";
import { listPartitions } from "./list-partitions";
import {
  DAY_MS,
  PARTITIONED_TABLES,
  PARTITION_LOCK_TIMEOUT,
  defaultPartitionName,
  partitionName,
  utcDayStart,
} from "./partitioned-tables";

type TableSpec = (typeof PARTITIONED_TABLES)[number];

const DUPLICATE_TABLE = "42P07";
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Creates the missing daily partitions of tool_call_spans and tool_errors for the UTC days from
 * `daysBack` days before `nowMs` to `daysAhead` days after it, and returns how many it created.
 * Safe to run on several nodes at once and to repeat. Rows of such a day already caught by the
 * DEFAULT partition are moved into the new partition. A partition whose locks are busy is left for
 * the next run (there are `daysAhead` days of slack).
 */
export async function ensurePartitions(store: PgStore, nowMs: number, daysBack: number, daysAhead = 14): Promise<number> {
  const today = utcDayStart(nowMs);
  const existing = new Set((await listPartitions(store)).map((p) => p.name));
  let created = 0;
  for (const spec of PARTITIONED_TABLES) {
    for (let d = -daysBack; d <= daysAhead; d++) {
      const from = today + d * DAY_MS;
      if (existing.has(partitionName(spec.table, from))) continue;
      if (await createDayPartition(store, spec, from)) created++;
    }
  }
  return created;
}

async function createDayPartition(store: PgStore, spec: TableSpec, from: number): Promise<boolean> {
  try {
    return await store.transaction((tx) => createInTransaction(tx as PgTx, spec, from));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === LOCK_NOT_AVAILABLE) return false;
    // Only reachable if something other than this function created the table meanwhile.
    if (code === DUPLICATE_TABLE) return false;
    throw error;
  }
}

// The partition is built beside the table and attached, rather than created with PARTITION OF:
// ATTACH locks the parent only against other schema changes, PARTITION OF against every reader.
async function createInTransaction(tx: PgTx, { table, timeColumn }: TableSpec, from: number): Promise<boolean> {
  const to = from + DAY_MS;
  const name = partitionName(table, from);
  const fallback = defaultPartitionName(table);
  await tx.run(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`);
  await tx.run(`SELECT pg_advisory_xact_lock(${PARTITION_DDL_LOCK})`);
  const found = await tx.get<{ attached: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = c.oid) AS attached FROM pg_class c WHERE c.oid = to_regclass('"${name}"')`,
  );
  if (found?.attached) return false;
  if (found) throw new Error(`table ${name} exists but is not a partition of ${table}; rename or drop it`);
  // ATTACH takes this lock on the default anyway (to check it holds no row of the day); taking it
  // first means the transaction never upgrades a lock that a concurrent insert also waits on.
  await tx.run(`LOCK TABLE "${fallback}" IN ACCESS EXCLUSIVE MODE`);
  // A day whose rows already sit in the default partition (ingested before its partition existed)
  // stays there: moving them would need the parent locked against readers for as long as the move
  // takes — ATTACH alone takes a weaker lock, and a query planned before it would find the rows in
  // neither place — so retention deletes them row by row instead. Days ahead never have rows.
  const rows = await tx.get(`SELECT 1 AS one FROM "${fallback}" WHERE "${timeColumn}" >= ${from} AND "${timeColumn}" < ${to} LIMIT 1`);
  if (rows) return false;
  // INCLUDING GENERATED: a partition's generated columns (the full-text vectors) must be generated too.
  await tx.run(`CREATE TABLE "${name}" (LIKE "${table}" INCLUDING DEFAULTS INCLUDING GENERATED)`);
  // Attaching builds the parent's indexes and clones its primary key and foreign key on the new table.
  await tx.run(`ALTER TABLE "${table}" ATTACH PARTITION "${name}" FOR VALUES FROM (${from}) TO (${to})`);
  return true;
}
