import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";

/** Every column of a raw table but its autoincrement `pk`, each required (null where unknown). */
export type InsertRow<T extends AnySQLiteTable> = {
  [K in Exclude<keyof T["$inferInsert"], "pk">]-?: Exclude<T["$inferInsert"][K], undefined>;
};

export interface RowInsert<T extends AnySQLiteTable, C extends keyof InsertRow<T>> {
  /** `INSERT INTO t (every column but pk) VALUES (?, …)` followed by the conflict clause. */
  sql: string;
  /**
   * The positional parameters of one row, in column order, booleans as 0/1: the `context` fields
   * (the same for a whole batch) from `context`, every other from `row`. Reuses one array: bind
   * and run before binding the next row.
   */
  bind: (context: Pick<InsertRow<T>, C>, row: Omit<InsertRow<T>, C>) => unknown[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * An insert whose column list is the Drizzle table's, so a new column is a type error at the caller
 * until it is supplied; run as a raw prepared statement on the ingest hot path. The binder is
 * generated with the field names written out: merging the row into a spread object and reading it
 * by name cost ~18 µs a row, more than the insert itself.
 */
export function rowInsert<T extends AnySQLiteTable, C extends keyof InsertRow<T> & string>(
  table: T,
  context: readonly C[],
  conflictClause: string,
): RowInsert<T, C> {
  const columns = Object.entries(getTableColumns(table)).filter(([field]) => field !== "pk");
  const lines = columns.map(([field, column], i) => {
    if (!IDENTIFIER.test(field)) throw new Error(`column field ${field} is not an identifier`);
    const from = `${(context as readonly string[]).includes(field) ? "context" : "row"}.${field}`;
    return column.columnType === "SQLiteBoolean" ? `v = ${from}; args[${i}] = v === null ? null : v ? 1 : 0;` : `args[${i}] = ${from};`;
  });
  const args: unknown[] = new Array(columns.length);
  const fill = new Function("context", "row", "args", `let v;\n${lines.join("\n")}\nreturn args;`) as (
    context: unknown,
    row: unknown,
    args: unknown[],
  ) => unknown[];
  const names = columns.map(([, column]) => column.name);
  return {
    sql: `INSERT INTO ${getTableName(table)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ${conflictClause}`,
    bind: (ctx, row) => fill(ctx, row, args),
  };
}
