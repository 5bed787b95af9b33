import { integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { hexBytesSqlite } from "./hex-bytes";

// The vocabulary every table and rollup is declared in, once for both engines. A declaration builds
// the SQLite table directly; `pgTableOf` (./pg-table.ts) derives the PostgreSQL one from it, mapping
// each kind below to its PostgreSQL type. Declarations import from here, never from an engine's core,
// so a column kind the derivation does not know cannot be written by accident.

export { index, primaryKey, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A table of the schema (SQLite-built; its PostgreSQL twin is `pgTableOf(table)`). */
export const table = sqliteTable;

/**
 * A 64-bit integer read as a JS number: epoch milliseconds, counters, ids. SQLite `integer`,
 * PostgreSQL `bigint` (every value Faultline stores is far below 2^53).
 */
export const int = <N extends string>(name: N) => integer(name);

/**
 * A 0/1 flag, null when unknown. SQLite `integer` read as a boolean; PostgreSQL `smallint` rather
 * than `boolean`, so one SQL text compares (`= 1`) and binds (0/1) it on both engines.
 */
export const flag = <N extends string>(name: N) => integer(name, { mode: "boolean" });

/** The row id a table numbers its rows with: SQLite `integer primary key autoincrement`, PostgreSQL `bigserial`. */
export const serial = <N extends string>(name: N) => integer(name).primaryKey({ autoIncrement: true });

/**
 * Lowercase hex text (a hash) stored as the bytes it spells, half the size: SQLite `blob`, PostgreSQL
 * `bytea`. Read and written as the hex text (./hex-bytes.ts); raw SQL must bind and read the bytes.
 */
export const hexBytes = <N extends string>(name: N) => hexBytesSqlite(name);
