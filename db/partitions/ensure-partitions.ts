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
// that form fails when the DEFAULT partition holds rows of the day, whereas here those rows move
// into the new table in the same transaction before the attach checks the default.
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
  // Moving rows needs the whole table to itself: ATTACH only takes SHARE UPDATE EXCLUSIVE on the
  // parent, so a query planned before the attach (without the new partition) but reading after the
  // commit would find the day's rows in neither place. Checked before any lock, and again under the
  // default's lock; a day that gained rows in between is left for the next run. Days still ahead —
  // nearly every call — have no rows and never block readers.
  const rowsIn = async () =>
    (await tx.get(`SELECT 1 AS one FROM "${fallback}" WHERE "${timeColumn}" >= ${from} AND "${timeColumn}" < ${to} LIMIT 1`)) !== undefined;
  const moving = await rowsIn();
  if (moving) await tx.run(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
  // ATTACH takes this lock on the default anyway; taking it first, before the rows move, means
  // the transaction never has to upgrade a lock that a concurrent insert also waits on.
  await tx.run(`LOCK TABLE "${fallback}" IN ACCESS EXCLUSIVE MODE`);
  if (!moving && (await rowsIn())) return false;
  await tx.run(`CREATE TABLE "${name}" (LIKE "${table}" INCLUDING DEFAULTS)`);
  const columns = (
    await tx.all<{ name: string }>(
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass('"${table}"') AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    )
  )
    .map((c) => `"${c.name}"`)
    .join(", ");
  await tx.run(
    `WITH moved AS (DELETE FROM "${fallback}" WHERE "${timeColumn}" >= ${from} AND "${timeColumn}" < ${to} RETURNING ${columns})
     INSERT INTO "${name}" (${columns}) SELECT ${columns} FROM moved`,
  );
  // Attaching builds the parent's indexes and clones its primary key and foreign key on the new table.
  await tx.run(`ALTER TABLE "${table}" ATTACH PARTITION "${name}" FOR VALUES FROM (${from}) TO (${to})`);
  return true;
}
