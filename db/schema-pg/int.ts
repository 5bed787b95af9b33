import { bigint } from "drizzle-orm/pg-core";

/**
 * An integer column as SQLite's `integer` holds it: 64-bit (epoch milliseconds, counters), read as a
 * JS number (every value Faultline stores is far below 2^53).
 */
export const int = (name: string) => bigint(name, { mode: "number" });
