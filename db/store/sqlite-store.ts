import { AsyncLocalStorage } from "node:async_hooks";
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { bindValue } from "./bind-value";
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from "./sqlite-checkpointer";
import { prepared } from "./sqlite-prepared";
import { beginImmediate, type TransactionSettings } from "./sqlite-write-lock";
import type { SqlParams, SqliteStore, SqliteTx } from "./types";

export const SQLITE_MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations", "sqlite");

export interface SqliteOptions {
  /** How long a statement waits for another connection's lock before failing with SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Apply pending migrations on open (default true; tests of a migration open an older schema). */
  migrate?: boolean;
  /**
   * WAL checkpoints on a worker thread with its own connection instead of inside the commits of this
   * one (sqlite-checkpointer.ts): for the server's store, whose thread answers requests. Off by default
   * (tests, scripts and the job worker's second connection open many stores that need none).
   */
  checkpointInBackground?: boolean | CheckpointerOptions;
}

function bind(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return params.map(bindValue);
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) named[k] = bindValue(v);
  return [named];
}

/** Opens a database file, sets the pragmas Faultline relies on, and applies pending migrations. */
export function openSqliteStore(file: string, options: SqliteOptions = {}): SqliteStore {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(/*turbopackIgnore: true*/ file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  // NORMAL in WAL mode loses at most the last commits on power loss, never corrupts.
  sqlite.pragma("synchronous = NORMAL");
  const lockWaitMs = options.busyTimeoutMs ?? 5000;
  sqlite.pragma(`busy_timeout = ${lockWaitMs}`);
  sqlite.pragma("foreign_keys = ON");
  if (options.migrate !== false) migrate(drizzle(sqlite), { migrationsFolder: SQLITE_MIGRATIONS_DIR });
  const background = options.checkpointInBackground;
  const checkpointer: Checkpointer | null =
    background && file !== ":memory:" ? startCheckpointer(sqlite, file, typeof background === "object" ? background : {}) : null;

  // One connection, one transaction at a time: an async transaction holds this chain until it ends,
  // so no other caller's statements land inside it between its awaits.
  let tail: Promise<unknown> = Promise.resolve();
  const inTransaction = new AsyncLocalStorage<true>();
  const exclusive = <T>(fn: () => Promise<T> | T): Promise<T> => {
    const result = tail.then(fn);
    tail = result.catch(() => undefined);
    return result;
  };

  /** Runs `fn` in a transaction holding the write lock, waited for without blocking the thread. */
  const writeLocked = async <T>(fn: () => Promise<T> | T, settings?: TransactionSettings): Promise<T> => {
    await beginImmediate(sqlite, lockWaitMs, settings);
    try {
      const result = await fn();
      sqlite.exec("COMMIT");
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw error;
    } finally {
      settings?.restore();
    }
  };

  // The ingest transaction's temporary storage (statement journals, sorts) is kept in memory, which
  // the batch bounds: in a file, a statement journal past 64 KiB spilled to /var/tmp and every later
  // statement of the transaction wrote its journal there, ~600 pwrite calls per 100-record batch and
  // about a sixth of its CPU (docs/ingest-performance.md). SQLite fixes the choice at BEGIN. The
  // other transactions and reads keep the default, which may spill what does not fit in memory.
  const tempInMemory: TransactionSettings = {
    apply: () => prepared(sqlite, "PRAGMA temp_store = MEMORY").run(),
    restore: () => prepared(sqlite, "PRAGMA temp_store = DEFAULT").run(),
  };

  const executor = {
    dialect: "sqlite" as const,
    sqlite,
    async all<Row>(sql: string, params?: SqlParams): Promise<Row[]> {
      return prepared<Row>(sqlite, sql).all(...bind(params));
    },
    async get<Row>(sql: string, params?: SqlParams): Promise<Row | undefined> {
      return prepared<Row>(sqlite, sql).get(...bind(params));
    },
    async run(sql: string, params?: SqlParams): Promise<number> {
      return prepared(sqlite, sql).run(...bind(params)).changes;
    },
  };
  const tx: SqliteTx = executor;

  return {
    ...executor,
    path: file,
    location: file,
    async run(sql, params) {
      // A write outside a transaction waits for the open one, or it would become part of it.
      if (inTransaction.getStore()) throw new Error("store.run inside a transaction: use the transaction's executor");
      return exclusive(() => writeLocked(() => executor.run(sql, params)));
    },
    transaction(fn) {
      if (inTransaction.getStore()) return Promise.reject(new Error("nested transaction: use the open transaction's executor"));
      return exclusive(() => inTransaction.run(true, () => writeLocked(() => fn(tx))));
    },
    transactionSync(fn) {
      // Nothing else runs on this connection between the lock and the commit: fn is synchronous.
      return exclusive(() => writeLocked(fn, tempInMemory));
    },
    async close() {
      await tail;
      // The worker's connection first: the last one to close checkpoints and removes the WAL.
      await checkpointer?.close();
      sqlite.close();
    },
  };
}
