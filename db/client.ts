import { openPgStore, type PgOptions } from "./store/pg-store";
import { openSqliteStore, type SqliteOptions } from "./store/sqlite-store";
import type { Store } from "./store/types";

export type { Dialect, Executor, PgStore, SqlParams, SqliteStore, Store, Tx } from "./store/types";
export { openSqliteStore } from "./store/sqlite-store";
export { openPgStore } from "./store/pg-store";

export type StoreOptions = SqliteOptions & PgOptions;

/** True for a `postgres://` or `postgresql://` URL: the store is PostgreSQL, else a SQLite file. */
export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/**
 * Opens the store a target names — a PostgreSQL URL or a SQLite file path (or `:memory:`) — and
 * applies pending migrations. Every `db/` function takes the result, whichever the engine.
 */
export async function openStore(target: string, options: StoreOptions = {}): Promise<Store> {
  return isPostgresUrl(target) ? openPgStore(target, options) : openSqliteStore(target, options);
}
