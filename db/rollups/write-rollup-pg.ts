import { getTableName } from "drizzle-orm";
import { queryNamed } from "../ingest/pg-named";
import type { PgTx } from "../store/types";
import { compileRollup, type StoredRow } from "./compile-rollup";
import type { AnyRollup } from "./define-rollup";
import type { RollupBatch } from "./rollup-batch";
import { rollupFields, rollupUnnestUpsertSql } from "./upsert-sql";

interface Combined {
  sql: string;
  /** Per rollup, its field count (the rollup takes that many array parameters, whatever its tables). */
  widths: number[];
}

const cache = new Map<string, Combined>();

/**
 * One statement upserting into every table of the given rollups: each table's multi-row upsert is a
 * data-modifying CTE. A rollup's rows are sent once, at its finest period; its coarser tables are
 * derived from the same parameters in the statement. The text is fixed for a list of rollups (a
 * rollup with nothing to add gets empty arrays), so every ingest transaction runs the same plan and
 * so writes the tables in the same order, and a batch costs one round trip for all of its rollups.
 */
function combinedUpsert(rollups: readonly AnyRollup[]): Combined {
  const id = rollups.map((r) => r.tableList.map((t) => getTableName(t.table)).join("+")).join(",");
  let hit = cache.get(id);
  if (hit) return hit;
  let offset = 0;
  const ctes: string[] = [];
  for (const rollup of rollups) {
    rollup.tableList.forEach(({ table, periodMs }, t) => {
      // Renumber the table's $1…$width to its rollup's place in the combined parameter list.
      const sql = rollupUnnestUpsertSql(rollup, table, t === 0 ? undefined : periodMs).replace(/\$(\d+)::/g, (_, n: string) => `$${Number(n) + offset}::`);
      ctes.push(`t${ctes.length} AS (${sql})`);
    });
    offset += rollupFields(rollup).length;
  }
  hit = { sql: `WITH ${ctes.join(",\n")}\nSELECT 1`, widths: rollups.map((r) => rollupFields(r).length) };
  cache.set(id, hit);
  return hit;
}

/** One array per field of a batch's rows (at its finest period), in `rollupFields` order. */
function columnsOf(batch: RollupBatch<StoredRow>, width: number): (string | number)[][] {
  const { bind } = compileRollup(batch.rollup);
  const args: (string | number)[] = new Array(width);
  const columns: (string | number)[][] = Array.from({ length: width }, () => new Array(batch.size));
  let r = 0;
  // RollupBatch merges per key, so each key appears once.
  for (const row of batch.rowsFor(batch.rollup.tableList[0]!)) {
    bind(row, args);
    for (let i = 0; i < width; i++) columns[i]![r] = args[i]!;
    r++;
  }
  return columns;
}

/**
 * The one statement (text and parameters) that upserts the batches' merged rows into every table of
 * their rollups, or null when they add nothing. The statement writes each table's rows in key order
 * and the tables in one fixed order: every node's ingest transactions then lock rollup rows in the
 * same order, and an upsert waiting on another batch's row can never be waited on in turn (no deadlock).
 */
export function rollupsStatement(batches: readonly RollupBatch<StoredRow>[]): { sql: string; params: (string | number)[][] } | null {
  if (batches.every((b) => b.size === 0)) return null;
  const { sql, widths } = combinedUpsert(batches.map((b) => b.rollup));
  const params: (string | number)[][] = [];
  batches.forEach((batch, i) => {
    const width = widths[i]!;
    if (batch.size === 0) for (let f = 0; f < width; f++) params.push([]);
    else params.push(...columnsOf(batch, width));
  });
  return { sql, params };
}

/** PostgreSQL: runs `rollupsStatement`. Call inside the ingest transaction, after the raw rows. */
export async function writeRollupsPg(tx: PgTx, batches: readonly RollupBatch<StoredRow>[]): Promise<void> {
  const statement = rollupsStatement(batches);
  if (statement) await queryNamed(tx, statement.sql, statement.params);
}
