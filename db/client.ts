import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdirSync } from "node:fs";
import path from "node:path";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema>;

/** A connection: the raw handle for prepared hot-path statements, and Drizzle for everything else. */
export interface Store {
  sqlite: Database.Database;
  db: Db;
  path: string;
}

export const MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations");

/** Where the embedded database lives: `FAULTLINE_DB_PATH`, else `./data/faultline.db`. */
export function databasePath(): string {
  return process.env.FAULTLINE_DB_PATH ?? path.join(process.cwd(), "data", "faultline.db");
}

/** Opens a database, sets the pragmas Faultline relies on, and applies pending migrations. */
export function openStore(file: string = databasePath()): Store {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode loses at most the last commits on power loss, never corrupts.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma(`busy_timeout = ${Number(process.env.FAULTLINE_BUSY_TIMEOUT_MS ?? 5000)}`);
  sqlite.pragma("foreign_keys = ON");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { sqlite, db, path: file };
}

const globalStore = globalThis as unknown as { __faultlineStore?: Store };

/** The process-wide writer connection (one per process; Next may load this module more than once). */
export function getStore(): Store {
  globalStore.__faultlineStore ??= openStore();
  return globalStore.__faultlineStore;
}
