import { readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR, type Store } from "../client";
import { prepared } from "./rollup-filters";

export interface Health {
  database: "ok";
  migrations: { applied: number; expected: number };
}

/** Migrations drizzle-kit committed: the entries of its journal. */
function expectedMigrations(): number {
  const journal: unknown = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8"));
  const entries = typeof journal === "object" && journal !== null && "entries" in journal ? journal.entries : undefined;
  return Array.isArray(entries) ? entries.length : 0;
}

/** Checks that the database answers and every committed migration is applied. */
export function getHealth(store: Store): Health {
  // Drizzle's own bookkeeping table, not part of the schema.
  const row = prepared<{ n: number }>(store.sqlite, "SELECT count(*) AS n FROM __drizzle_migrations").get();
  return { database: "ok", migrations: { applied: row?.n ?? 0, expected: expectedMigrations() } };
}

/**
 * Proves the database file takes a write: rewrites the header's user_version (unused by Faultline)
 * with its own value in a committed transaction, without waiting for another connection's lock
 * (a busy database is not a storage fault: `busy` comes back instead). Throws what SQLite throws
 * when the file, its WAL or the disk refuses the write.
 */
export function probeWrite(store: Store): "written" | "busy" {
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
 * Reads every page, so it runs on the job worker, never on the request thread.
 */
export function quickCheck(store: Store, maxProblems = 5): string {
  const rows = store.sqlite.pragma(`quick_check(${maxProblems | 0})`) as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check);
  return problems.length === 1 && problems[0] === "ok" ? "ok" : problems.join("; ");
}
