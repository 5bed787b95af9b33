import type Database from "better-sqlite3";
import type { AnyRollup } from "./define-rollup";
import { compileRollup, type StoredRow } from "./compile-rollup";
import type { RollupBatch } from "./rollup-batch";
import { rollupFields, rollupUpsertSql } from "./upsert-sql";

interface PreparedRollup {
  fields: readonly string[];
  bind: (row: StoredRow, args: (string | number)[]) => void;
  /** One upsert per table of the rollup, in `tableList` order. */
  upserts: readonly Database.Statement[];
}

const cache = new WeakMap<Database.Database, Map<AnyRollup, PreparedRollup>>();

/** A rollup's derived upserts on a connection, prepared once (raw statements: the ingest hot path). */
export function rollupStatements(sqlite: Database.Database, rollup: AnyRollup): PreparedRollup {
  let byRollup = cache.get(sqlite);
  if (!byRollup) cache.set(sqlite, (byRollup = new Map()));
  let prepared = byRollup.get(rollup);
  if (!prepared) {
    prepared = { fields: rollupFields(rollup), bind: compileRollup(rollup).bind, upserts: rollup.tableList.map((t) => sqlite.prepare(rollupUpsertSql(rollup, t.table))) };
    byRollup.set(rollup, prepared);
  }
  return prepared;
}

/** Upserts a batch's merged rows into every table of its rollup. Call inside the ingest transaction. */
export function writeRollupBatch(sqlite: Database.Database, batch: RollupBatch<StoredRow>): void {
  if (batch.size === 0) return;
  const { fields, bind, upserts } = rollupStatements(sqlite, batch.rollup);
  const args: (string | number)[] = new Array(fields.length);
  const tables = batch.rollup.tableList;
  for (let i = 0; i < tables.length; i++) {
    const upsert = upserts[i]!;
    for (const row of batch.rowsFor(tables[i]!)) {
      bind(row, args);
      upsert.run(args);
    }
  }
}
