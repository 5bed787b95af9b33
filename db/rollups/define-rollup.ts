import type { BuildColumns } from "drizzle-orm";
import {
  primaryKey,
  sqliteTable,
  type AnySQLiteColumn,
  type AnySQLiteTable,
  type SQLiteColumnBuilderBase,
  type SQLiteTableExtraConfigValue,
  type SQLiteTableWithColumns,
} from "drizzle-orm/sqlite-core";

/** How a value column merges when two rows meet on one key: in a batch, and in the upsert. */
export type MergeRule = "sum" | "max" | "min";

/** A value column of a rollup: its Drizzle column and its merge rule. */
export interface RollupValue<B extends SQLiteColumnBuilderBase = SQLiteColumnBuilderBase> {
  column: B;
  merge: MergeRule;
}

/** Counters and histogram bucket counts add up. */
export const sum = <B extends SQLiteColumnBuilderBase>(column: B): RollupValue<B> => ({ column, merge: "sum" });
/** Latest sightings, highest attempts. */
export const max = <B extends SQLiteColumnBuilderBase>(column: B): RollupValue<B> => ({ column, merge: "max" });
/** Earliest sightings. */
export const min = <B extends SQLiteColumnBuilderBase>(column: B): RollupValue<B> => ({ column, merge: "min" });

export type KeyColumns = Record<string, SQLiteColumnBuilderBase>;
export type ValueColumns = Record<string, RollupValue>;

/** One physical table of a rollup; `periodMs` is the period its period key is truncated to. */
export interface RollupTableSpec {
  name: string;
  periodMs?: number;
}

/** Key and value column builders as the one column map Drizzle builds a table from. */
export type RollupColumns<K extends KeyColumns, V extends ValueColumns> = {
  [P in keyof K | keyof V]: P extends keyof K ? K[P] : P extends keyof V ? V[P]["column"] : never;
};

export type RollupTable<N extends string, K extends KeyColumns, V extends ValueColumns> = SQLiteTableWithColumns<{
  name: N;
  schema: undefined;
  columns: BuildColumns<N, RollupColumns<K, V>, "sqlite">;
  dialect: "sqlite";
}>;

export interface RollupSpec<K extends KeyColumns, V extends ValueColumns, T extends Record<string, RollupTableSpec>> {
  /** The tables holding this rollup, finest period first; each has the same columns and key. */
  tables: T;
  /** The key column holding the period start, truncated to each table's `periodMs`. */
  period?: keyof K & string;
  /** Key columns, in primary-key order. */
  keys: K;
  /** Value columns with their merge rules. */
  values: V;
  /** Indexes besides the primary key; `name` is the table's, so each period gets its own index names. */
  indexes?: (columns: BuildColumns<string, RollupColumns<K, V>, "sqlite">, name: string) => SQLiteTableExtraConfigValue[];
}

/** One table of a rollup, with the period its rows are truncated to (none for unperiodic rollups). */
export interface RollupTableEntry {
  table: AnySQLiteTable;
  periodMs: number | undefined;
}

/** A declared rollup: its Drizzle tables, and what the write path derives statements and merges from. */
export interface Rollup<K extends KeyColumns, V extends ValueColumns, T extends Record<string, RollupTableSpec>> {
  tables: { [P in keyof T]: RollupTable<T[P]["name"], K, V> };
  /** Every table, finest period first. */
  tableList: readonly RollupTableEntry[];
  period: (keyof K & string) | undefined;
  keys: readonly (keyof K & string)[];
  values: readonly { name: keyof V & string; merge: MergeRule }[];
  /** Type-only: the row of this rollup (every key and value, as stored). */
  readonly $row?: RollupTable<string, K, V>["$inferSelect"];
}

/** What the generic write path needs of any rollup. */
export interface AnyRollup {
  tableList: readonly RollupTableEntry[];
  period: string | undefined;
  keys: readonly string[];
  values: readonly { name: string; merge: MergeRule }[];
}

/** The row type of a rollup: its keys and values by field name, as stored. */
export type RollupRow<R extends { $row?: unknown }> = NonNullable<R["$row"]>;

/**
 * Declares a rollup once: key columns (the primary key, in order) and value columns with their
 * merge rules. The Drizzle tables (one per period), the upsert SQL, the in-batch merge and the row
 * type are derived from it, so a new counter is one line here plus a migration.
 */
export function defineRollup<K extends KeyColumns, V extends ValueColumns, const T extends Record<string, RollupTableSpec>>(
  spec: RollupSpec<K, V, T>,
): Rollup<K, V, T> {
  const columns: Record<string, SQLiteColumnBuilderBase> = { ...spec.keys };
  for (const [name, value] of Object.entries(spec.values)) columns[name] = value.column;
  const keys = Object.keys(spec.keys);
  const tables: Record<string, AnySQLiteTable> = {};
  const tableList: RollupTableEntry[] = [];
  for (const [alias, t] of Object.entries(spec.tables)) {
    const table = sqliteTable(t.name, columns, (self) => [
      primaryKey({ columns: pick(self, keys) }),
      // The column objects Drizzle passes are those of RollupColumns<K, V>; only the map is assembled at run time.
      ...(spec.indexes?.(self as BuildColumns<string, RollupColumns<K, V>, "sqlite">, t.name) ?? []),
    ]);
    tables[alias] = table;
    tableList.push({ table, periodMs: t.periodMs });
  }
  return {
    // Built from the same map, so each table has exactly the RollupTable<name, K, V> columns.
    tables: tables as Rollup<K, V, T>["tables"],
    tableList,
    period: spec.period,
    keys,
    values: Object.entries(spec.values).map(([name, v]) => ({ name, merge: v.merge })),
  };
}

function pick(columns: Record<string, AnySQLiteColumn>, keys: readonly string[]): [AnySQLiteColumn, ...AnySQLiteColumn[]] {
  const [first, ...rest] = keys.map((k) => {
    const c = columns[k];
    if (!c) throw new Error(`rollup key ${k} is not a column`);
    return c;
  });
  if (!first) throw new Error("a rollup needs at least one key column");
  return [first, ...rest];
}
