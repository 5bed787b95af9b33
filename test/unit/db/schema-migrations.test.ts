import { readFileSync } from "node:fs";
import path from "node:path";
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import { describe, expect, it } from "vitest";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "@/db/schema";

// What `npm run db:generate` would write, without writing it: the declarations (SQLite as written,
// PostgreSQL as derived) against each engine's latest migration snapshot. A change to a declaration
// without its migrations, or a derivation that drifts from what PostgreSQL was migrated to, fails here.

function latestSnapshot(engine: "sqlite" | "postgres") {
  const dir = path.join(process.cwd(), "db/migrations", engine, "meta");
  const journal = JSON.parse(readFileSync(path.join(dir, "_journal.json"), "utf8")) as { entries: { idx: number }[] };
  const last = journal.entries.at(-1)!.idx;
  return JSON.parse(readFileSync(path.join(dir, `${String(last).padStart(4, "0")}_snapshot.json`), "utf8"));
}

describe("the declared schema equals the migrations", () => {
  it("on SQLite", async () => {
    const prev = latestSnapshot("sqlite");
    const cur = await generateSQLiteDrizzleJson(schema, prev.id);
    expect(Object.keys(cur.tables).length).toBe(Object.values(schema).filter((v) => is(v, SQLiteTable)).length);
    expect(await generateSQLiteMigration(prev, cur)).toEqual([]);
  });

  it("on PostgreSQL", async () => {
    const prev = latestSnapshot("postgres");
    const cur = generateDrizzleJson(schema, prev.id);
    expect(Object.keys(cur.tables).length).toBe(Object.values(schema).filter((v) => is(v, PgTable)).length);
    expect(await generateMigration(prev, cur)).toEqual([]);
  });
});
