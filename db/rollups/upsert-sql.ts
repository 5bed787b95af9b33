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

/** PostgreSQL: the period start of `column` for a period of `periodMs`, rounded down as `periodOf` does (also before 1970). */
const periodStartSql = (column: string, periodMs: number) => `${column} - ((${column} % ${periodMs}) + ${periodMs}) % ${periodMs}`;

/**
 * PostgreSQL: the same upsert for many rows in one statement, one array parameter per field in
 * `rollupFields` order, each key at most once. Rows are written, and so locked, in key order
 * (`ORDER BY` the key columns): every transaction then takes a table's rows in one order, which keeps
 * concurrent batches free of deadlocks. With `periodMs`, the rows given are the finest table's and this
 * is a coarser table of the rollup: the statement truncates the period key to `periodMs` and merges
 * the rows meeting there with each value's rule (`sum`, `max`, `min`), so the coarser tables cost no
 * parameters of their own. Only integer values are merged that way (text would compare by the
 * database's collation, not as the in-memory merge does).
 */
export function rollupUnnestUpsertSql(rollup: AnyRollup, table: AnySQLiteTable, periodMs?: number): string {
  const { table: name, names, columns, conflict } = shape(rollup, table, "postgres");
  const fields = rollupFields(rollup);
  const arrays = fields.map((field, i) => `$${i + 1}::${pgArrayType(columns[field]!)}`);
  const from = `FROM unnest(${arrays.join(", ")}) AS u(${names.join(", ")})`;
  const keyCount = rollup.keys.length;
  const order = `ORDER BY ${names.slice(0, keyCount).map((_, i) => i + 1).join(", ")}`;
  if (periodMs === undefined) return `INSERT INTO ${name} (${names.join(", ")}) SELECT ${names.join(", ")} ${from} ${order} ${conflict}`;
  const periodName = rollup.period === undefined ? undefined : names[fields.indexOf(rollup.period)];
  if (periodName === undefined) throw new Error(`${name}: a coarser table needs the rollup's period key`);
  const select = names.map((column, i) => {
    if (i < keyCount) return column === periodName ? `${periodStartSql(column, periodMs)} AS ${column}` : column;
    const value = rollup.values[i - keyCount]!;
    if (pgArrayType(columns[value.name]!) !== "bigint[]") throw new Error(`${name}.${column}: only integer values are merged into a coarser table`);
    return `CAST(${value.merge}(${column}) AS bigint) AS ${column}`;
  });
  const group = `GROUP BY ${names.slice(0, keyCount).map((_, i) => i + 1).join(", ")}`;
  return `INSERT INTO ${name} (${names.join(", ")}) SELECT ${select.join(", ")} ${from} ${group} ${order} ${conflict}`;
}
