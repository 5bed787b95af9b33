import { PG_TEXT_COLUMNS } from "@/db/queries/text-search";
import { readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is, sql, SQL, type Column } from "drizzle-orm";
import { PgDialect, PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, SQLiteTable, check, getTableConfig as sqliteConfig, real, sqliteTable } from "drizzle-orm/sqlite-core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { index, int, table, text } from "@/db/schema/columns";
import { pgTableOf } from "@/db/schema/pg-table";
import { PG_MIGRATIONS_DIR, openPgStore } from "@/db/store/pg-store";
import { TEST_PG_URL, openTestStore } from "@/test/helpers/stores";

// Each table is declared once (db/schema/columns.ts) and its PostgreSQL table derived (db/schema/pg-table.ts).
// These checks hold the derivation to the declaration, independently of how it is written, so that a
// query never works on one engine only; schema-migrations.test.ts holds both to their migrations.

const sqliteTables = new Map(Object.values(schema).filter((v) => is(v, SQLiteTable)).map((t) => [sqliteConfig(t).name, t]));
const pgTables = new Map(Object.values(schema).filter((v) => is(v, PgTable)).map((t) => [pgConfig(t).name, t]));

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

const columnName = (c: unknown) => (c as { name: string }).name;

/** Whatever a schema declares about its keys, indexes and foreign keys, in comparable form. */
function shape(config: AnyConfig, renderWhere: (where: SQL) => string) {
  const primaryKey = config.primaryKeys.length > 0 ? config.primaryKeys.flatMap((pk) => pk.columns.map(columnName)) : config.columns.filter((c) => c.primary).map((c) => c.name);
  return {
    columns: config.columns.map((c: Column) => ({ name: c.name, notNull: c.notNull, default: c.default ?? null })),
    primaryKey,
    indexes: config.indexes
      .map((i) => ({
        name: i.config.name,
        unique: i.config.unique,
        columns: i.config.columns.map(columnName),
        where: i.config.where ? renderWhere(i.config.where) : null,
      }))
      .sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "")),
    uniqueConstraints: config.uniqueConstraints.map((u) => ({ name: u.name, columns: u.columns.map(columnName) })),
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return { columns: ref.columns.map(columnName), table: getTableName(ref.foreignTable), to: ref.foreignColumns.map(columnName) };
    }),
  };
}

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

/** The PostgreSQL type each SQLite column must have (db/schema/columns.ts says why flags are smallint). */
function expectedPgType(column: Column): string {
  if (column.columnType === "SQLiteBoolean") return "smallint";
  if (column.columnType === "SQLiteInteger" && column.primary) return "bigserial";
  if (column.columnType === "SQLiteInteger") return "bigint";
  if (column.columnType === "SQLiteText") return "text";
  if (column.columnType === "SQLiteReal") return "double precision";
  // hexBytes: hex text stored as its bytes (db/schema/hex-bytes.ts).
  if (column.columnType === "SQLiteCustomColumn" && column.getSQLType() === "blob") return "bytea";
  throw new Error(`no PostgreSQL mapping for ${column.columnType} (${column.name})`);
}

describe("PostgreSQL schema parity with the SQLite schema", () => {
  // drizzle-kit reads the exported `<table>Pg` tables: a table without one would be dropped by the next migration.
  it("exports a derived PostgreSQL table for every table", () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    expect(sqliteTables.size).toBeGreaterThanOrEqual(19);
  });

  describe.each([...sqliteTables.keys()].sort())("%s", (name) => {
    const sqlite = sqliteConfig(sqliteTables.get(name)!);
    const pgTable = pgTables.get(name);

    it("has the same columns, keys, indexes and foreign keys", () => {
      expect(pgTable, `db/schema exports no PostgreSQL table ${name} (export const …Pg = pgTableOf(…))`).toBeDefined();
      const pgc = pgConfig(pgTable!);
      // Partial index conditions render with each dialect's quoting; both quote identifiers with ".
      const a = shape(sqlite, (w) => sqliteDialect.sqlToQuery(w).sql);
      const b = shape(pgc, (w) => pgDialect.sqlToQuery(w).sql);
      expect(b).toEqual(a);
    });

    it("maps every column type", () => {
      const pgc = pgConfig(pgTable!);
      expect(pgc.columns.map((c) => c.getSQLType())).toEqual(sqlite.columns.map(expectedPgType));
    });
  });
});

describe("deriving a PostgreSQL table", () => {
  it("builds each table once, so drizzle-kit and foreign keys see one object", () => {
    expect(pgTableOf(schema.runs)).toBe(schema.runsPg);
  });

  it("refuses what it cannot map rather than guessing a type", () => {
    const floating = sqliteTable("odd_real", { id: text("id").primaryKey(), ratio: real("ratio") });
    expect(() => pgTableOf(floating)).toThrow("ratio: SQLiteReal has no PostgreSQL mapping");
    const checked = table("odd_check", { id: text("id").primaryKey(), n: int("n") }, (t) => [check("n_positive", sql`${t.n} > 0`)]);
    expect(() => pgTableOf(checked)).toThrow("odd_check: checks and unique constraints are not derived");
    const expression = table("odd_expression", { id: text("id").primaryKey() }, (t) => [index("odd_lower_idx").on(sql`lower(${t.id})`)]);
    expect(() => pgConfig(pgTableOf(expression))).toThrow("only columns are derived into PostgreSQL keys and indexes");
  });
});

describe.skipIf(!TEST_PG_URL)("PostgreSQL migrations", () => {
  it("create every table with the declared columns, and partition the raw tables", async () => {
    const store = await openTestStore("postgres");
    try {
      const rows = await store.all<{ table: string; column: string; nullable: string }>(
        `SELECT table_name AS "table", column_name AS "column", is_nullable AS nullable FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      );
      for (const [name, table] of pgTables) {
        // The generated full-text vectors are PostgreSQL's own (db/migrations/postgres/0014_text_search.sql).
        const generated: string | undefined = PG_TEXT_COLUMNS[name as keyof typeof PG_TEXT_COLUMNS];
        const live = rows.filter((r) => r.table === name && r.column !== generated).map((r) => ({ name: r.column, notNull: r.nullable === "NO" }));
        expect(live, name).toEqual(pgConfig(table).columns.map((c) => ({ name: c.name, notNull: c.notNull })));
      }
      const partitioned = await store.all<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relkind = 'p' ORDER BY relname`);
      expect(partitioned.map((r) => r.name)).toEqual(["tool_call_spans", "tool_errors"]);
      const unique = await store.all<{ name: string; def: string }>(
        `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE indexname IN ('spans_project_span_uq', 'tool_errors_project_event_uq') ORDER BY 1`,
      );
      expect(unique.map((r) => [r.name, /\((.*)\)/.exec(r.def)?.[1]])).toEqual([
        ["spans_project_span_uq", "project_id, span_id, started_at"],
        ["tool_errors_project_event_uq", "project_id, event_id, occurred_at"],
      ]);
    } finally {
      await store.close();
    }
  });

  it("migrate an empty database once when two pools start at the same time", async () => {
    const name = `fl_h1_parallel_${process.pid}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(TEST_PG_URL!);
      url.pathname = `/${name}`;
      const stores = await Promise.all([openPgStore(url.toString(), { poolMax: 2 }), openPgStore(url.toString(), { poolMax: 2 })]);
      const journal = JSON.parse(readFileSync(path.join(PG_MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
      expect(await stores[0].get<{ n: number }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations")).toEqual({ n: journal.entries.length });
      await Promise.all(stores.map((s) => s.close()));
      // A restart finds nothing to do.
      await (await openPgStore(url.toString(), { poolMax: 1 })).close();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
