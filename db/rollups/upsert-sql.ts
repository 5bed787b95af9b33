import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import { pgArrayType } from "../ingest/pg-array-type";
import { greatest, least } from "../store/dialect-sql";
import type { Dialect } from "../store/types";
import type { AnyRollup, MergeRule } from "./define-rollup";

/** The declared fields of a rollup in bind order: keys, then values. */
export const rollupFields = (rollup: AnyRollup): string[] => [...rollup.keys, ...rollup.values.map((v) => v.name)];

// The stored side is named by its table: PostgreSQL finds a bare column ambiguous beside `excluded`.
function mergeSql(dialect: Dialect, table: string, column: string, merge: MergeRule): string {
  const stored = `${table}.${column}`;
  const incoming = `excluded.${column}`;
  if (merge === "sum") return `${column} = ${stored} + ${incoming}`;
  return `${column} = ${merge === "max" ? greatest(dialect, stored, incoming) : least(dialect, stored, incoming)}`;
}

interface Shape {
  table: string;
  /** SQL column names in `rollupFields` order. */
  names: string[];
  /** The conflict clause: merge on the primary key with each value's rule, or record the key once. */
  conflict: string;
}

function shape(rollup: AnyRollup, table: AnySQLiteTable, dialect: Dialect): Shape & { columns: ReturnType<typeof getTableColumns> } {
  const columns = getTableColumns(table);
  const name = getTableName(table);
  const sqlName = (field: string): string => {
    const column = columns[field];
    if (!column) throw new Error(`${name} has no column for rollup field ${field}`);
    return column.name;
  };
  const names = rollupFields(rollup).map(sqlName);
  // The conflict target is the primary key, named so the statement does not rely on SQLite's
  // "any constraint" default.
  const key = rollup.keys.map(sqlName).join(", ");
  const set = rollup.values.map((v) => mergeSql(dialect, name, sqlName(v.name), v.merge));
  return { table: name, names, columns, conflict: `ON CONFLICT (${key}) DO ${set.length > 0 ? `UPDATE SET ${set.join(", ")}` : "NOTHING"}` };
}

/**
 * `INSERT … ON CONFLICT DO UPDATE` of one row of one rollup table, positional parameters in
 * `rollupFields` order: a row meeting a stored one on the primary key merges with each value's
 * rule; a rollup without values only records the key. SQLite's ingest path runs it row by row.
 */
export function rollupUpsertSql(rollup: AnyRollup, table: AnySQLiteTable, dialect: Dialect = "sqlite"): string {
  const { table: name, names, conflict } = shape(rollup, table, dialect);
  return `INSERT INTO ${name} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ${conflict}`;
}

/**
 * PostgreSQL: the same upsert for many rows in one statement, one array parameter per field in
 * `rollupFields` order. Rows are written in array order (the caller sorts them by key, so that
 * concurrent batches lock rollup rows in one order), and each key may appear once.
 */
export function rollupUnnestUpsertSql(rollup: AnyRollup, table: AnySQLiteTable): string {
  const { table: name, names, columns, conflict } = shape(rollup, table, "postgres");
  const arrays = rollupFields(rollup).map((field, i) => `$${i + 1}::${pgArrayType(columns[field]!)}`);
  return (
    `INSERT INTO ${name} (${names.join(", ")}) SELECT ${names.join(", ")} ` +
    `FROM unnest(${arrays.join(", ")}) WITH ORDINALITY AS u(${names.join(", ")}, ord) ORDER BY ord ${conflict}`
  );
}
