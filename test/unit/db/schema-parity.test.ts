import { readFileSync } from "node:fs";
import path from "node:path";
import { getTableName, is, SQL, type Column } from "drizzle-orm";
import { PgDialect, PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import * as sqliteSchema from "@/db/schema";
import * as pgSchema from "@/db/schema-pg";
import { PG_MIGRATIONS_DIR, openPgStore } from "@/db/store/pg-store";
import { TEST_PG_URL, openTestStore } from "@/test/helpers/stores";

// The two schemas are written by hand, one per dialect; these checks make any drift between them a
// failing test rather than a query that works on one engine only.

const sqliteTables = new Map(Object.values(sqliteSchema).filter((v) => is(v, SQLiteTable)).map((t) => [sqliteConfig(t).name, t]));
const pgTables = new Map(Object.values(pgSchema).filter((v) => is(v, PgTable)).map((t) => [pgConfig(t).name, t]));

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

/** The PostgreSQL type each SQLite column must have (see db/schema-pg/tool-call-spans.ts for smallint flags). */
function expectedPgType(column: Column): string {
  if (column.columnType === "SQLiteBoolean") return "smallint";
  if (column.columnType === "SQLiteInteger" && column.primary) return "bigserial";
  if (column.columnType === "SQLiteInteger") return "bigint";
  if (column.columnType === "SQLiteText") return "text";
  if (column.columnType === "SQLiteReal") return "double precision";
  throw new Error(`no PostgreSQL mapping for ${column.columnType} (${column.name})`);
}

describe("PostgreSQL schema parity with the SQLite schema", () => {
  it("declares the same tables", () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    expect(sqliteTables.size).toBeGreaterThanOrEqual(19);
  });

  describe.each([...sqliteTables.keys()].sort())("%s", (name) => {
    const sqlite = sqliteConfig(sqliteTables.get(name)!);
    const pgTable = pgTables.get(name);

    it("has the same columns, keys, indexes and foreign keys", () => {
      expect(pgTable, `db/schema-pg has no table ${name}`).toBeDefined();
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

describe.skipIf(!TEST_PG_URL)("PostgreSQL migrations", () => {
  it("create every table with the declared columns, and partition the raw tables", async () => {
    const store = await openTestStore("postgres");
    try {
      const rows = await store.all<{ table: string; column: string; nullable: string }>(
        `SELECT table_name AS "table", column_name AS "column", is_nullable AS nullable FROM information_schema.columns
         WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      );
      for (const [name, table] of pgTables) {
        const live = rows.filter((r) => r.table === name).map((r) => ({ name: r.column, notNull: r.nullable === "NO" }));
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
