import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../schema";
import type { PgStore, SqliteStore } from "../client";
import { DAY_MS, ensurePartitions } from "../partitions";

/** One table's copy, for a progress display. */
export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

/** A table's row counts after the copy: equal, or the copy failed. */
export interface TableCount {
  table: string;
  source: number;
  target: number;
}

/** The target already holds data: copying into it could mix two histories. */
export class TargetNotEmptyError extends Error {}

// Daily partitions made for the copied history, at most: older rows go to the default partition,
// which retention prunes row by row like SQLite does.
const MAX_PARTITION_DAYS = 90;

// PostgreSQL binds at most 65 535 parameters per statement.
const MAX_PARAMS = 60_000;
const MAX_ROWS = 1000;

/** Every table of the schema, referenced tables before the tables that reference them. */
export function copyOrder(): SQLiteTable[] {
  const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
  const names = new Map(tables.map((t) => [t, getTableConfig(t).name]));
  const ordered: SQLiteTable[] = [];
  const visit = (t: SQLiteTable) => {
    if (ordered.includes(t)) return;
    for (const fk of getTableConfig(t).foreignKeys) {
      const parent = fk.reference().foreignTable as SQLiteTable;
      if (parent !== t) visit(parent);
    }
    ordered.push(t);
  };
  for (const t of [...tables].sort((a, b) => names.get(a)!.localeCompare(names.get(b)!))) visit(t);
  return ordered;
}

/** Refuses a target that holds any row in any Faultline table. */
export async function assertEmptyTarget(target: PgStore): Promise<void> {
  for (const table of copyOrder()) {
    const name = getTableConfig(table).name;
    if (await target.get(`SELECT 1 AS one FROM ${name} LIMIT 1`)) {
      throw new TargetNotEmptyError(`the target database is not empty (table ${name} has rows); copy into an empty database`);
    }
  }
}

/**
 * Copies every table of a SQLite database (raw rows, rollups, drift state, projects and keys) into
 * an empty, migrated PostgreSQL database in one transaction — on any error the target stays empty —
 * then moves each serial `pk` sequence past the copied ids and compares row counts per table.
 * Rows are read in the source's storage order and written in multi-row statements.
 */
export async function copyToPostgres(source: SqliteStore, target: PgStore, onProgress: (p: CopyProgress) => void = () => {}): Promise<TableCount[]> {
  await assertEmptyTarget(target);
  const oldest = source.sqlite
    .prepare<[], { at: number | null }>("SELECT min(at) AS at FROM (SELECT min(started_at) AS at FROM tool_call_spans UNION ALL SELECT min(occurred_at) FROM tool_errors)")
    .get()?.at;
  const now = Date.now();
  if (oldest != null) await ensurePartitions(target, now, Math.min(MAX_PARTITION_DAYS, Math.max(0, Math.ceil((now - oldest) / DAY_MS))));
  const tables = copyOrder();
  await target.transaction(
    async (tx) => {
      for (const table of tables) {
        const config = getTableConfig(table);
        const columns = config.columns.map((c) => c.name);
        const list = columns.join(", ");
        const total = source.sqlite.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${config.name}`).get()!.n;
        const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
        let chunk: unknown[] = [];
        let rows = 0;
        let copied = 0;
        const flush = async () => {
          if (rows === 0) return;
          const row = `(${columns.map(() => "?").join(", ")})`;
          await tx.run(`INSERT INTO ${config.name} (${list}) VALUES ${Array.from({ length: rows }, () => row).join(", ")}`, chunk);
          copied += rows;
          chunk = [];
          rows = 0;
          onProgress({ table: config.name, copied, total });
        };
        onProgress({ table: config.name, copied: 0, total });
        for (const row of source.sqlite.prepare(`SELECT ${list} FROM ${config.name}`).raw().iterate() as IterableIterator<unknown[]>) {
          chunk.push(...row);
          if (++rows === perStatement) await flush();
        }
        await flush();
        // The copied ids keep their values (drift watermarks refer to them): move each serial's
        // sequence past them, or the next insert would collide.
        for (const column of columns) {
          const serial = await tx.get<{ seq: string | null }>(`SELECT pg_get_serial_sequence('${config.name}', '${column}') AS seq`);
          if (serial?.seq) await tx.run(`SELECT setval('${serial.seq}', COALESCE((SELECT max(${column}) FROM ${config.name}), 0) + 1, false)`);
        }
      }
    },
    { retries: 0 },
  );
  const counts: TableCount[] = [];
  for (const table of tables) {
    const name = getTableConfig(table).name;
    const s = source.sqlite.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${name}`).get()!.n;
    const t = (await target.get<{ n: number }>(`SELECT count(*) AS n FROM ${name}`))!.n;
    counts.push({ table: name, source: s, target: t });
  }
  return counts;
}
