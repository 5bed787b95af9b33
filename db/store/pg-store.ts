import path from "node:path";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { redactDatabaseUrl } from "@/lib/database-url";
import { compilePg, pgValues } from "./pg-params";
import type { PgStore, PgTx, SqlParams } from "./types";

export const PG_MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations", "postgres");

/** The advisory lock key every node takes around migrations, so two nodes starting together migrate once. */
const MIGRATION_LOCK = 7_210_001;

export interface PgOptions {
  /**
   * How long a statement waits for a row or table lock before failing with 55P03 (answered 503,
   * like SQLite's busy timeout). Advisory job and migration locks are taken without waiting, or
   * with the wait lifted for the session.
   */
  busyTimeoutMs?: number;
  /** Connections this process opens at most. */
  poolMax?: number;
  /** Skip migrations (a tool that only reads, or a test that migrates itself). */
  migrate?: boolean;
}

// int8 (counts, sums of integers, epoch milliseconds) and numeric (sums of int8) arrive as strings by
// default; every such value Faultline stores is far below 2^53, so numbers are exact.
const toNumber = (v: string) => Number(v);
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === 20 || oid === 1700 ? toNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const DEADLOCK_OR_SERIALIZATION = new Set(["40P01", "40001"]);

type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

function executorOf(q: Queryable) {
  const query = async <Row>(sql: string, params?: SqlParams) => {
    const compiled = compilePg(sql);
    return q.query<Row & pg.QueryResultRow>({ text: compiled.text, values: pgValues(compiled, params) });
  };
  return {
    dialect: "postgres" as const,
    async all<Row>(sql: string, params?: SqlParams): Promise<Row[]> {
      return (await query<Row>(sql, params)).rows;
    },
    async get<Row>(sql: string, params?: SqlParams): Promise<Row | undefined> {
      return (await query<Row>(sql, params)).rows[0];
    },
    async run(sql: string, params?: SqlParams): Promise<number> {
      return (await query(sql, params)).rowCount ?? 0;
    },
  };
}

/** Applies pending migrations under a session advisory lock: a second node waits, then finds nothing to do. */
export async function migratePg(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  const lost = (error: Error) => console.error(`[faultline] PostgreSQL connection lost while migrating: ${error.message}`);
  client.on("error", lost);
  try {
    // Another node may be migrating: wait for it however long it takes.
    await client.query("SET lock_timeout = 0");
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: PG_MIGRATIONS_DIR });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    // Not back into the pool with the session setting changed.
    client.off("error", lost);
    client.release(true);
  }
}

/**
 * Names sort and prefix-search by the database's collation. Under `C` both engines agree; under a
 * language collation (a managed service's default) the search box also matches other cases and
 * lists sort differently. Worth a line at start-up, not a refusal.
 */
async function warnAboutCollation(pool: pg.Pool): Promise<void> {
  const row = (await pool.query<{ collation: string }>("SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()")).rows[0];
  if (row && !/^(C|POSIX)(\.utf-?8)?$/i.test(row.collation)) {
    console.warn(`[faultline] the database's collation is ${row.collation}: names sort and match by it; create the database with --locale=C to behave exactly as on SQLite`);
  }
}

/** Connects a pool to PostgreSQL and applies pending migrations. */
export async function openPgStore(url: string, options: PgOptions = {}): Promise<PgStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 10_000,
    // A connection keeps the partitions it has planned over: a new one spends 16-20 ms planning its
    // first unbounded span read at 10M spans (docs/ingest-performance.md), so a dashboard read once a
    // minute should find its connections warm. allowExitOnIdle lets scripts end without close().
    idleTimeoutMillis: 600_000,
    allowExitOnIdle: true,
    types,
    // jit off: a read over the daily partitions with per-row lookups is costed in the millions, and
    // JIT compiled its hundreds of expressions for 1-9 s before reading ~25k rows (SLO reads at 1M spans).
    options: `-c lock_timeout=${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))} -c jit=off`,
  });
  // An idle connection the server closed emits here; unhandled, it would end the process.
  pool.on("error", (error) => console.error(`[faultline] PostgreSQL connection lost: ${error.message}`));
  try {
    if (options.migrate !== false) await migratePg(pool);
    await warnAboutCollation(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    ...executorOf(pool),
    pool,
    location: redactDatabaseUrl(url),
    async transaction(fn, txOptions = {}) {
      const retries = txOptions.retries ?? 3;
      for (let attempt = 0; ; attempt++) {
        const client = await pool.connect();
        // A checked-out client has no pool listener: the server going away between two statements
        // would emit an unhandled 'error' and end the process. The next statement fails instead.
        const lost = (error: Error) => console.error(`[faultline] PostgreSQL connection lost in a transaction: ${error.message}`);
        client.on("error", lost);
        const tx: PgTx = { ...executorOf(client), client };
        try {
          await client.query(txOptions.pgFirst === undefined ? "BEGIN" : `BEGIN; ${txOptions.pgFirst}`);
          const result = await fn(tx);
          await client.query("COMMIT");
          client.off("error", lost);
          client.release();
          return result;
        } catch (error) {
          let broken: Error | undefined;
          try {
            await client.query("ROLLBACK");
          } catch (e) {
            broken = e as Error;
          }
          // A connection that cannot even roll back is not returned to the pool.
          client.off("error", lost);
          client.release(broken);
          const code = (error as { code?: unknown }).code;
          if (attempt < retries && typeof code === "string" && DEADLOCK_OR_SERIALIZATION.has(code)) continue;
          throw error;
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
}
