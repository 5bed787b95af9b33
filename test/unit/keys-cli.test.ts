import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Dialect, type Store } from "@/db/client";
import { verifyKey } from "@/db/keys";
import { createTestDatabase, DIALECTS } from "../helpers/stores";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where the CLI's store lives for a dialect: a SQLite file, or a fresh PostgreSQL database. */
async function target(dialect: Dialect): Promise<{ env: Record<string, string>; open: () => Promise<Store>; drop: () => Promise<void> }> {
  if (dialect === "sqlite") {
    const dbPath = path.join(dir, "faultline.db");
    return { env: { FAULTLINE_DB_PATH: dbPath }, open: () => openStore(dbPath), drop: async () => {} };
  }
  const db = await createTestDatabase();
  return { env: { FAULTLINE_DATABASE_URL: db.url }, open: () => openStore(db.url, { poolMax: 1 }), drop: db.drop };
}

describe.each(DIALECTS)("npm run keys (%s)", (dialect) => {
  let t: Awaited<ReturnType<typeof target>>;
  beforeAll(async () => {
    t = await target(dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });

  function keys(...args: string[]) {
    // Only this dialect's variable: one set in the caller's environment must not pick the store.
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.FAULTLINE_DB_PATH;
    delete env.FAULTLINE_DATABASE_URL;
    Object.assign(env, t.env);
    const r = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/keys.ts", ...args], { env, encoding: "utf8" });
    return { status: r.status, out: r.stdout + r.stderr };
  }

  it("creates, lists and revokes keys by prefix, never printing a stored secret again", async () => {
    const created = keys("create", "ci bot");
    expect(created.status, created.out).toBe(0);
    const key = created.out.match(/flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}/)?.[0];
    expect(key).toBeDefined();
    const prefix = key!.slice(0, 12);
    const store = await t.open();
    try {
      expect(await verifyKey(store, key!)).toEqual({ projectId: "default", scope: "ingest" });

      const listed = keys("list");
      expect(listed.status).toBe(0);
      // On an empty database the command makes the project but only the one key it prints.
      expect(listed.out.trim().split("\n")).toHaveLength(1);
      expect(listed.out).toContain(`${prefix}  active `);
      expect(listed.out).toContain("ci bot");
      expect(listed.out).not.toContain(key!.slice(13));

      expect(keys("revoke", prefix)).toMatchObject({ status: 0, out: `Revoked ${prefix}.\n` });
      expect(await verifyKey(store, key!)).toBeNull();
      expect(keys("revoke", prefix)).toMatchObject({ status: 1, out: `No active key with prefix ${prefix}.\n` });
      expect(keys("revoke").status).toBe(2);
      expect(keys("rotate").status).toBe(2);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("creates a read key for the CI gate with --read", async () => {
    const created = keys("create", "ci gate", "--read");
    expect(created.status, created.out).toBe(0);
    expect(created.out).toMatch(/^Created read key flk_[0-9A-Za-z]{8} for project default\./);
    const key = created.out.match(/flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}/)![0];
    const store = await t.open();
    try {
      expect(await verifyKey(store, key)).toEqual({ projectId: "default", scope: "read" });
      expect(keys("list").out).toContain(`${key.slice(0, 12)}  active   read    created`);
    } finally {
      await store.close();
    }
  }, 60_000);
});
