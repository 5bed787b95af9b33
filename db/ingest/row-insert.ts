import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import { pgArrayType } from "./pg-array-type";

/** Every column of a raw table but its autoincrement `pk`, each required (null where unknown). */
export type InsertRow<T extends AnySQLiteTable> = {
  [K in Exclude<keyof T["$inferInsert"], "pk">]-?: Exclude<T["$inferInsert"][K], undefined>;
};

/** The conflict clause of a raw insert on each engine (PostgreSQL's partitioned tables have wider unique keys). */
export interface ConflictClauses {
  sqlite: string;
  postgres: string;
}

/** An insert of one raw table, and its binders, for each engine's write path. */
export interface RowInsert<T extends AnySQLiteTable, C extends keyof InsertRow<T>> {
  /** SQLite: `INSERT INTO t (every column but pk) VALUES (?, …)` followed by the conflict clause. */
  sql: string;
  /**
   * PostgreSQL: the same insert for many rows, one array parameter per column (`unnest`; each
   * record id at most once), followed by the conflict clause and `RETURNING` the record id of each
   * row it wrote. A table's `pk`s are handed out in array order.
   */
  pgSql: string;
  /**
   * `pgSql` with its parameters numbered from `$offset + 1` and only the rows meeting `where` (on
   * the unnested columns, `u.<column>`) inserted: a step of a larger statement (a data-modifying CTE).
   */
  pgSqlWhere: (offset: number, where: string) => string;
  /** The number of parameters of `pgSql` (one per column). */
  pgWidth: number;
  /**
   * The positional parameters of one row, in column order, booleans as 0/1: the `context` fields
   * (the same for a whole batch) from `context`, every other from `row`. Reuses one array: bind
   * and run before binding the next row.
   */
  bind: (context: Pick<InsertRow<T>, C>, row: Omit<InsertRow<T>, C>) => unknown[];
  /**
   * The `pgSql` parameters of many rows, one per column in column order, booleans as 0/1: a `context`
   * column's one value (a scalar: the statement repeats it on every row), every other column's array,
   * empty when every row's value is null (`unnest` pads a shorter array with nulls).
   */
  columns: (context: Pick<InsertRow<T>, C>, rows: readonly Omit<InsertRow<T>, C>[]) => unknown[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * An insert whose column list is the Drizzle table's, so a new column is a type error at the caller
 * until it is supplied; run as a raw prepared statement row by row on SQLite's ingest hot path, and
 * as one multi-row statement per batch on PostgreSQL's. The binders are generated with the field
 * names written out: merging the row into a spread object and reading it by name cost ~18 µs a row,
 * more than the insert itself. `returning` is the record id column: PostgreSQL hands it back for each
 * row written, and writes rows in its order.
 */
export function rowInsert<T extends AnySQLiteTable, C extends keyof InsertRow<T> & string>(
  table: T,
  context: readonly C[],
  conflict: ConflictClauses,
  returning: keyof InsertRow<T> & string,
): RowInsert<T, C> {
  const tableColumns = getTableColumns(table);
  const columns = Object.entries(tableColumns).filter(([field]) => field !== "pk");
  // A custom column (hex stored as bytes) binds what its driver mapping makes of the value.
  const toDriver = columns.map(([, column]) => (value: unknown) => column.mapToDriverValue(value));
  const value = columns.map(([field, column], i) => {
    if (!IDENTIFIER.test(field)) throw new Error(`column field ${field} is not an identifier`);
    const from = `${(context as readonly string[]).includes(field) ? "context" : "row"}.${field}`;
    if (column.columnType === "SQLiteBoolean") return `((v = ${from}) === null ? null : v ? 1 : 0)`;
    return column.columnType === "SQLiteCustomColumn" ? `((v = ${from}) === null ? null : toDriver[${i}](v))` : from;
  });
  const args: unknown[] = new Array(columns.length);
  // The bodies only read the declared fields (checked identifiers, never input).
  const fill = new Function("toDriver", "context", "row", "args", `let v;\n${value.map((v, i) => `args[${i}] = ${v};`).join("\n")}\nreturn args;`) as (
    toDriver: readonly ((value: unknown) => unknown)[],
    context: unknown,
    row: unknown,
    args: unknown[],
  ) => unknown[];
  const names = columns.map(([, column]) => column.name);
  const returned = tableColumns[returning];
  const name = getTableName(table);
  if (!returned) throw new Error(`${name} has no column ${returning}`);
  // PostgreSQL: a batch's context values are sent once (a scalar parameter), not once per row, and a
  // column null on every row as an empty array. Per 100-span batch that is about a quarter fewer
  // bytes to write as array literals and send. The record id column is never null, so the unnest
  // always has the batch's length.
  const isContext = columns.map(([field]) => (context as readonly string[]).includes(field));
  const perRow = columns.map((_, i) => i).filter((i) => !isContext[i]);
  const fillColumns = new Function(
    "toDriver",
    "context",
    "rows",
    [
      "let v;",
      ...perRow.map((i) => `const c${i} = []; let s${i} = false;`),
      "for (const row of rows) {",
      ...perRow.map((i) => `if ((v = ${value[i]}) != null) s${i} = true; c${i}.push(v);`),
      "}",
      `return [${columns.map((_, i) => (isContext[i] ? value[i] : `s${i} ? c${i} : []`)).join(", ")}];`,
    ].join("\n"),
  ) as (toDriver: readonly ((value: unknown) => unknown)[], context: unknown, rows: readonly unknown[]) => unknown[];
  const list = names.join(", ");
  const param = (i: number, offset: number) => `$${offset + i + 1}::${pgArrayType(columns[i]![1])}`;
  const selected = (offset: number) => names.map((n, i) => (isContext[i] ? `${param(i, offset).slice(0, -2)} AS ${n}` : n)).join(", ");
  // pk numbers follow the batch's order, as SQLite's rowids do (reads break time ties by pk), while
  // rows are written, and their keys locked, in record id order: concurrent batches that share
  // records then wait on each other in one order and never deadlock.
  const hasPk = "pk" in tableColumns;
  const pgInsert = (offset: number, where: string | null) =>
    `INSERT INTO ${name} (${hasPk ? "pk, " : ""}${list}) SELECT ${hasPk ? "pk, " : ""}${list} FROM (` +
    `SELECT ${hasPk ? `nextval('${name}_pk_seq') AS pk, ` : ""}${selected(offset)} FROM unnest(${perRow.map((i) => param(i, offset)).join(", ")}) ` +
    `WITH ORDINALITY AS u(${perRow.map((i) => names[i]).join(", ")}, ord)${where === null ? "" : ` WHERE ${where}`} ORDER BY ord` +
    `) AS batch ORDER BY ${returned.name} ${conflict.postgres} RETURNING ${name}.${returned.name}`;
  return {
    sql: `INSERT INTO ${name} (${list}) VALUES (${names.map(() => "?").join(", ")}) ${conflict.sqlite}`,
    pgSql: pgInsert(0, null),
    pgSqlWhere: pgInsert,
    pgWidth: columns.length,
    bind: (ctx, row) => fill(toDriver, ctx, row, args),
    columns: (ctx, rows) => fillColumns(toDriver, ctx, rows),
  };
}
