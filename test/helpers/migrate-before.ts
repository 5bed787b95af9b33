import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Dialect, Store } from "@/db/client";
import { PG_MIGRATIONS_DIR, openPgStore } from "@/db/store/pg-store";
import { SQLITE_MIGRATIONS_DIR, openSqliteStore } from "@/db/store/sqlite-store";
import { createTestDatabase } from "./stores";

/** A copy of a migrations folder whose journal stops before the migration whose tag ends with `tagEnd`. */
function folderBefore(dir: string, tagEnd: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), "fl-mig-"));
  cpSync(dir, copy, { recursive: true });
  const journalPath = path.join(copy, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith(tagEnd));
  if (cut <= 0) throw new Error(`no migration tagged *${tagEnd} after the first`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return copy;
}

/**
 * A database migrated up to just before the migration tagged `*tagEnd`, seeded by `seed` on that old
 * schema, then opened as the app opens it (every migration applied): what an upgrade finds.
 * `drop` removes a PostgreSQL database (SQLite files live in a temporary folder).
 */
export async function upgradedStore(dialect: Dialect, tagEnd: string, seed: (store: Store) => Promise<void>): Promise<{ store: Store; drop: () => Promise<void> }> {
  if (dialect === "sqlite") {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "fl-upgrade-")), "f.db");
    const raw = new Database(file);
    migrateSqlite(drizzleSqlite(raw), { migrationsFolder: folderBefore(SQLITE_MIGRATIONS_DIR, tagEnd) });
    raw.close();
    const before = await openSqliteStore(file, { migrate: false });
    await seed(before);
    await before.close();
    return { store: await openSqliteStore(file), drop: async () => {} };
  }
  const db = await createTestDatabase({ unmigrated: true });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await migratePg(drizzlePg({ client }), { migrationsFolder: folderBefore(PG_MIGRATIONS_DIR, tagEnd) });
  await client.end();
  const before = await openPgStore(db.url, { poolMax: 2, migrate: false });
  await seed(before);
  await before.close();
  return { store: await openPgStore(db.url, { poolMax: 2 }), drop: db.drop };
}
