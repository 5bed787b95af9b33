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

export interface StoreOptions {
  /** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

/** Opens a database, sets the pragmas Faultline relies on, and applies pending migrations. */
export function openStore(file: string, options: StoreOptions = {}): Store {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode loses at most the last commits on power loss, never corrupts.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  sqlite.pragma("foreign_keys = ON");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { sqlite, db, path: file };
}
