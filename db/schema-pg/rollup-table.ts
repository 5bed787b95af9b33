import type { BuildExtraConfigColumns } from "drizzle-orm";
import { pgTable, primaryKey, type AnyPgColumn, type PgColumnBuilderBase, type PgTableExtraConfigValue } from "drizzle-orm/pg-core";

type Columns<N extends string, C extends Record<string, PgColumnBuilderBase>> = BuildExtraConfigColumns<N, C, "pg">;

/**
 * One PostgreSQL rollup table, as `defineRollup` declares its SQLite twin: the key columns (in
 * order) form the primary key. The key is named `<table>_pk` because Drizzle's default name lists
 * every key column and would pass PostgreSQL's 63-byte identifier limit and be cut short.
 */
export function rollupTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  keys: readonly [keyof C & string, ...(keyof C & string)[]],
  indexes?: (self: Columns<N, C>) => PgTableExtraConfigValue[],
) {
  return pgTable(name, columns, (self) => {
    // The extra-config columns are the table's own columns; primaryKey only reads their names.
    const byField = self as unknown as Record<string, AnyPgColumn>;
    const [first, ...rest] = keys.map((k) => byField[k]!);
    return [primaryKey({ name: `${name}_pk`, columns: [first!, ...rest] }), ...(indexes?.(self) ?? [])];
  });
}
