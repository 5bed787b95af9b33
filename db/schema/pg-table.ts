import { Column, SQL, getTableColumns, is } from "drizzle-orm";
import {
  bigint,
  bigserial,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  type AnyPgColumn,
  type UpdateDeleteAction,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
  type PgTableWithColumns,
} from "drizzle-orm/pg-core";
import { SQLiteBaseInteger, getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { hexBytesPg } from "./hex-bytes";

/** A derived PostgreSQL table: what drizzle-kit diffs and the parity test reads (queries use the SQLite-typed table). */
export type DerivedPgTable = PgTableWithColumns<{ name: string; schema: undefined; columns: Record<string, AnyPgColumn>; dialect: "pg" }>;

interface Chain {
  primaryKey(): unknown;
  notNull(): unknown;
  default(value: unknown): unknown;
  references(ref: () => AnyPgColumn, actions: ReferenceActions): unknown;
}

interface ReferenceActions {
  onDelete?: UpdateDeleteAction;
  onUpdate?: UpdateDeleteAction;
}

const derived = new WeakMap<SQLiteTable, DerivedPgTable>();

/** The PostgreSQL column builder for one declared column (./columns.ts names the kinds). */
function pgColumn(c: Column, references: (() => AnyPgColumn) | undefined, actions: ReferenceActions): PgColumnBuilderBase {
  const serial = is(c, SQLiteBaseInteger) && c.autoIncrement;
  let builder: PgColumnBuilderBase;
  if (c.columnType === "SQLiteInteger") builder = serial ? bigserial(c.name, { mode: "number" }) : bigint(c.name, { mode: "number" });
  else if (c.columnType === "SQLiteBoolean") builder = smallint(c.name);
  else if (c.columnType === "SQLiteText") builder = c.enumValues?.length ? text(c.name, { enum: c.enumValues as [string, ...string[]] }) : text(c.name);
  else if (c.columnType === "SQLiteCustomColumn" && c.getSQLType() === "blob") builder = hexBytesPg(c.name);
  else throw new Error(`column ${c.name}: ${c.columnType} has no PostgreSQL mapping; declare it with db/schema/columns.ts`);
  // Every PostgreSQL builder has these methods (they change the builder in place); Drizzle's generic
  // builder type does not admit calling them on a union of kinds.
  const set = builder as unknown as Chain;
  if (c.primary) set.primaryKey();
  else if (c.notNull && !serial) set.notNull();
  if (c.hasDefault && !serial) set.default(typeof c.default === "boolean" ? Number(c.default) : c.default);
  if (references) set.references(references, actions);
  return builder;
}

/** The same SQL with each column replaced by its PostgreSQL twin (a partial index's condition). */
function onPg(where: SQL, columns: Record<string, AnyPgColumn>): SQL {
  return new SQL(where.queryChunks.map((chunk) => (is(chunk, Column) ? columnNamed(columns, chunk) : chunk)));
}

function columnNamed(columns: Record<string, AnyPgColumn>, of: unknown): AnyPgColumn {
  // Index and key entries are columns; an expression (an index on `lower(x)`) is not derived.
  const found = is(of, Column) ? Object.values(columns).find((c) => c.name === of.name) : undefined;
  if (!found) throw new Error(`${String((of as { name?: unknown }).name ?? "an expression")}: only columns are derived into PostgreSQL keys and indexes`);
  return found;
}

/**
 * The PostgreSQL table of a declared table, derived (and built once): same names, columns, defaults,
 * primary key, indexes (partial ones included) and foreign keys, with each column kind mapped to its
 * PostgreSQL type. A composite primary key is named `<table>_pk` unless the declaration names it:
 * Drizzle's default name lists every key column and passes PostgreSQL's 63-byte identifier limit.
 */
export function pgTableOf(sqlite: SQLiteTable): DerivedPgTable {
  const known = derived.get(sqlite);
  if (known) return known;
  const config = getTableConfig(sqlite);
  if (config.checks.length > 0 || config.uniqueConstraints.length > 0) throw new Error(`${config.name}: checks and unique constraints are not derived; use a unique index`);
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const [key, column] of Object.entries(getTableColumns(sqlite))) {
    const fk = config.foreignKeys.find((f) => f.reference().columns.some((c) => c.name === column.name));
    // Resolved lazily, like a hand-written `.references(() => parent.id)`: the parent is derived on first use.
    const references = fk && (() => {
      const ref = fk.reference();
      if (ref.columns.length !== 1) throw new Error(`${config.name}: only single-column foreign keys are derived`);
      return columnNamed(getTableColumns(pgTableOf(ref.foreignTable)), ref.foreignColumns[0]);
    });
    columns[key] = pgColumn(column, references, { onDelete: fk?.onDelete, onUpdate: fk?.onUpdate });
  }
  const table = pgTable(config.name, columns, (self): PgTableExtraConfigValue[] => {
    const byName = self as unknown as Record<string, AnyPgColumn>;
    const pick = (cs: readonly unknown[]) => {
      const [first, ...rest] = cs.map((c) => columnNamed(byName, c));
      if (!first) throw new Error(`${config.name}: an empty column list`);
      return [first, ...rest] as [AnyPgColumn, ...AnyPgColumn[]];
    };
    return [
      ...config.primaryKeys.map((pk) => primaryKey({ name: pk.name ?? `${config.name}_pk`, columns: pick(pk.columns) })),
      ...config.indexes.map(({ config: i }) => {
        const built = (i.unique ? uniqueIndex : index)(i.name).on(...pick(i.columns));
        return i.where ? built.where(onPg(i.where, byName)) : built;
      }),
    ];
  }) as unknown as DerivedPgTable;
  derived.set(sqlite, table);
  return table;
}
