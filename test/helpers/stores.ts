import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { openPgStore, openSqliteStore, type Dialect, type Store } from "@/db/client";
import { PG_MIGRATIONS_DIR } from "@/db/store/pg-store";

/**
 * The admin URL of a throwaway PostgreSQL cluster (`.ci/run` starts one and sets it). Without it
 * the suites run on SQLite only and say so once.
 */
export const TEST_PG_URL = process.env.FAULTLINE_TEST_PG_URL;

/** The dialects this run tests: both when a cluster is there. */
export const DIALECTS: readonly Dialect[] = TEST_PG_URL ? ["sqlite", "postgres"] : ["sqlite"];

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

// A migrated template per migration set: each test database is a copy of it (~50 ms) instead of a
// fresh migration run (~1 s).
function templateName(): string {
  const files = readdirSync(PG_MIGRATIONS_DIR, { recursive: true, encoding: "utf8" }).sort();
  const hash = createHash("sha256");
  for (const f of files) if (f.endsWith(".sql") || f.endsWith(".json")) hash.update(f).update(readFileSync(path.join(PG_MIGRATIONS_DIR, f)));
  return `fl_template_${hash.digest("hex").slice(0, 12)}`;
}

let template: Promise<string> | undefined;

async function ensureTemplate(admin: pg.Client): Promise<string> {
  const name = templateName();
  // Test files run in parallel processes: one builds the template, the others wait on the lock.
  await admin.query("SELECT pg_advisory_lock(7210099)");
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${name}`);
      const store = await openPgStore(withDatabase(TEST_PG_URL!, name), { poolMax: 1 });
      await store.close();
    }
  } finally {
    await admin.query("SELECT pg_advisory_unlock(7210099)");
  }
  return name;
}

/**
 * A new PostgreSQL database with every migration applied (or none: `unmigrated`, to test start-up
 * migrations); returns its URL and how to drop it.
 */
export async function createTestDatabase(options: { unmigrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_PG_URL) throw new Error("FAULTLINE_TEST_PG_URL is not set");
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  try {
    const from = options.unmigrated ? "template0" : await (template ??= ensureTemplate(admin));
    const name = `fl_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`);
    return {
      url: withDatabase(TEST_PG_URL, name),
      drop: async () => {
        const c = new pg.Client({ connectionString: TEST_PG_URL });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}

/**
 * A store for one test on the dialect asked: SQLite in memory, or a fresh PostgreSQL database.
 * `close()` also drops the PostgreSQL database.
 */
export async function openTestStore(dialect: Dialect): Promise<Store> {
  if (dialect === "sqlite") return openSqliteStore(":memory:");
  const db = await createTestDatabase();
  const store = await openPgStore(db.url, { poolMax: 4, migrate: false });
  const close = store.close;
  return Object.assign(store, {
    close: async () => {
      await close();
      await db.drop();
    },
  });
}
