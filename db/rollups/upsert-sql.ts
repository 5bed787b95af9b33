import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import type { AnyRollup, MergeRule } from "./define-rollup";

/** The declared fields of a rollup in bind order: keys, then values. */
export const rollupFields = (rollup: AnyRollup): string[] => [...rollup.keys, ...rollup.values.map((v) => v.name)];

const mergeSql = (column: string, merge: MergeRule): string =>
  merge === "sum" ? `${column} = ${column} + excluded.${column}` : `${column} = ${merge}(${column}, excluded.${column})`;

/**
 * `INSERT … ON CONFLICT DO UPDATE` of one rollup table, positional parameters in `rollupFields`
 * order: a row meeting a stored one on the primary key merges with each value's rule; a rollup
 * without values only records the key.
 */
export function rollupUpsertSql(rollup: AnyRollup, table: AnySQLiteTable): string {
  const columns = getTableColumns(table);
  const sqlName = (field: string): string => {
    const column = columns[field];
    if (!column) throw new Error(`${getTableName(table)} has no column for rollup field ${field}`);
    return column.name;
  };
  const names = rollupFields(rollup).map(sqlName);
  // The conflict target is the primary key, named so the statement does not rely on SQLite's
  // "any constraint" default.
  const key = rollup.keys.map(sqlName).join(", ");
  const set = rollup.values.map((v) => mergeSql(sqlName(v.name), v.merge));
  return (
    `INSERT INTO ${getTableName(table)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")}) ` +
    `ON CONFLICT (${key}) DO ${set.length > 0 ? `UPDATE SET ${set.join(", ")}` : "NOTHING"}`
  );
}
