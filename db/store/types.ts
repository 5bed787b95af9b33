import type Database from "better-sqlite3";
import type { PoolClient, Pool } from "pg";

/** The engines behind the `db/` API: the embedded default and the one for several nodes. */
export type Dialect = "sqlite" | "postgres";

/**
 * Parameters of one statement: an object for `@name` placeholders or an array for `?` ones.
 * Booleans are bound as 0/1 on both engines (flags are integer columns, so one SQL text serves both).
 */
export type SqlParams = Readonly<Record<string, unknown>> | readonly unknown[];

/** Runs SQL written once for both dialects (see docs/architecture.md, "One SQL text, two engines"). */
export interface Executor {
  readonly dialect: Dialect;
  /** Every row of a query. */
  all<Row>(sql: string, params?: SqlParams): Promise<Row[]>;
  /** The first row of a query, if any. */
  get<Row>(sql: string, params?: SqlParams): Promise<Row | undefined>;
  /** A statement's number of changed rows. */
  run(sql: string, params?: SqlParams): Promise<number>;
}

/** A transaction on SQLite: the raw handle is there for prepared hot-path statements. */
export interface SqliteTx extends Executor {
  readonly dialect: "sqlite";
  readonly sqlite: Database.Database;
}

/** A transaction on PostgreSQL: one pooled connection between BEGIN and COMMIT. */
export interface PgTx extends Executor {
  readonly dialect: "postgres";
  readonly client: PoolClient;
}

export type Tx = SqliteTx | PgTx;

export interface TransactionOptions {
  /**
   * PostgreSQL: how many times a transaction that lost a deadlock or a serialization conflict is
   * run again (the callback must be safe to repeat). SQLite never needs it: one writer at a time.
   */
  retries?: number;
  /**
   * PostgreSQL: a statement without parameters (say, taking a lock the whole transaction holds) sent
   * with BEGIN in one round trip, as the transaction's first statement.
   */
  pgFirst?: string;
}

interface StoreBase extends Executor {
  /** Runs `fn` in one transaction: all of it commits, or none of it (the error is rethrown). */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Closes the connection(s); the store is unusable afterwards. */
  close(): Promise<void>;
  /** Where the data lives, safe to log: a file path, or the URL without its password. */
  readonly location: string;
}

export interface SqliteStore extends StoreBase {
  readonly dialect: "sqlite";
  readonly sqlite: Database.Database;
  /** The database file (or `:memory:`). */
  readonly path: string;
  /**
   * Runs synchronous work in one immediate transaction once no other transaction of this store is
   * open: the ingest hot path binds prepared statements row by row without a promise per row.
   */
  transactionSync<T>(fn: () => T): Promise<T>;
}

export interface PgStore extends StoreBase {
  readonly dialect: "postgres";
  readonly pool: Pool;
}

/** One database connection (SQLite) or pool (PostgreSQL) behind the `db/` API. */
export type Store = SqliteStore | PgStore;
