import { readFileSync } from "node:fs";
import path from "node:path";
import type { Dialect, SqliteStore, Store } from "../client";
import { PG_MIGRATIONS_DIR } from "../store/pg-store";
import { SQLITE_MIGRATIONS_DIR } from "../store/sqlite-store";

/** The connection pool of a PostgreSQL store, as pg.Pool counts it. */
export interface PoolHealth {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Callers queued for a connection: above zero for long means the pool is too small. */
  waiting: number;
  max: number;
}

export interface Health {
  database: "ok";
  dialect: Dialect;
  migrations: { applied: number; expected: number };
  /** PostgreSQL only. */
  pool?: PoolHealth;
}

/** Migrations drizzle-kit committed for a dialect: the entries of its journal. */
function expectedMigrations(dir: string): number {
  const journal: unknown = JSON.parse(readFileSync(path.join(dir, "meta", "_journal.json"), "utf8"));
  const entries = typeof journal === "object" && journal !== null && "entries" in journal ? journal.entries : undefined;
  return Array.isArray(entries) ? entries.length : 0;
}

/** Checks that the database answers and every committed migration is applied; on PostgreSQL also the pool's state. */
export async function getHealth(store: Store): Promise<Health> {
  // Drizzle's own bookkeeping table, not part of the schema: PostgreSQL keeps it in the `drizzle` schema.
  if (store.dialect === "postgres") {
    const row = await store.get<{ n: number }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
    const { pool } = store;
    return {
      database: "ok",
      dialect: "postgres",
      migrations: { applied: row?.n ?? 0, expected: expectedMigrations(PG_MIGRATIONS_DIR) },
      pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 },
    };
  }
  const row = await store.get<{ n: number }>("SELECT count(*) AS n FROM __drizzle_migrations");
  return { database: "ok", dialect: "sqlite", migrations: { applied: row?.n ?? 0, expected: expectedMigrations(SQLITE_MIGRATIONS_DIR) } };
}

/**
 * Proves the database file takes a write: rewrites the header's user_version (unused by Faultline)
 * with its own value in a committed transaction, without waiting for another connection's lock
 * (a busy database is not a storage fault: `busy` comes back instead). Throws what SQLite throws
 * when the file, its WAL or the disk refuses the write. SQLite only: PostgreSQL reports its own faults.
 */
export function probeWrite(store: SqliteStore): "written" | "busy" {
  const previous = store.sqlite.pragma("busy_timeout", { simple: true }) as number;
  store.sqlite.pragma("busy_timeout = 0");
  try {
    const version = store.sqlite.pragma("user_version", { simple: true }) as number;
    store.sqlite.pragma(`user_version = ${Number(version) | 0}`);
    return "written";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") return "busy";
    throw error;
  } finally {
    store.sqlite.pragma(`busy_timeout = ${Number(previous) | 0}`);
  }
}

/**
 * SQLite's `PRAGMA quick_check`: "ok", or the first problems it reports (at most `maxProblems`).
 * Reads every page, so it runs on the job worker, never on the request thread. SQLite only.
 */
export function quickCheck(store: SqliteStore, maxProblems = 5): string {
  const rows = store.sqlite.pragma(`quick_check(${maxProblems | 0})`) as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check);
  return problems.length === 1 && problems[0] === "ok" ? "ok" : problems.join("; ");
}
