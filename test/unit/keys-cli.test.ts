import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Dialect, type Store } from "@/db/client";
import { setupTokenUsable } from "@/db/auth/setup-tokens";
import { createUser, findUserByEmail } from "@/db/auth/users";
import { verifyKey } from "@/db/keys";
import { tokenHash } from "@/server/auth/tokens";
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
      expect(await verifyKey(store, key!)).toEqual({ projectId: "default", scope: "ingest", archived: false });

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

  it("records each change in the audit log with the actor cli, and refuses a key for an archived project", async () => {
    const created = keys("create", "nightly", "--project", "cli-audit");
    expect(created.status, created.out).toBe(0);
    const prefix = created.out.match(/flk_[0-9A-Za-z]{8}/)![0];
    expect(keys("revoke", prefix).status).toBe(0);
    const store = await t.open();
    try {
      const rows = await store.all<{ action: string; actorUserId: string | null; actorLabel: string; target: string; detail: string; address: string | null }>(
        `SELECT action, actor_user_id AS "actorUserId", actor_label AS "actorLabel", target, detail, address FROM audit_log WHERE project_id = 'cli-audit' ORDER BY id`,
      );
      const cli = { actorUserId: null, actorLabel: "cli", address: null };
      expect(rows).toEqual([
        { action: "project.created", ...cli, target: "cli-audit", detail: JSON.stringify({ name: "cli-audit" }) },
        { action: "key.created", ...cli, target: prefix, detail: JSON.stringify({ name: "nightly", scope: "ingest" }) },
        { action: "key.revoked", ...cli, target: prefix, detail: JSON.stringify({ name: "nightly", scope: "ingest" }) },
      ]);
      await store.run("UPDATE projects SET archived_at = ? WHERE id = 'cli-audit'", [Date.now()]);
      expect(keys("create", "late", "--project", "cli-audit")).toMatchObject({
        status: 1,
        out: "Project cli-audit is archived: restore it (Settings → Projects) before creating keys.\n",
      });
      expect(Number((await store.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM api_keys WHERE project_id = 'cli-audit'"))?.n)).toBe(1);
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
      expect(await verifyKey(store, key)).toEqual({ projectId: "default", scope: "read", archived: false });
      expect(keys("list").out).toContain(`${key.slice(0, 12)}  active   read    created`);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("prints a working setup link, lists accounts, and disables and enables one (audited)", async () => {
    const link = keys("setup-link", "--url", "https://faultline.example/");
    expect(link.status, link.out).toBe(0);
    const url = link.out.match(/https:\/\/faultline\.example\/setup\?token=([A-Za-z0-9_-]{43})/);
    expect(url).not.toBeNull();
    expect(keys("setup-link", "--url", "faultline.example").status).toBe(2);
    const store = await t.open();
    try {
      expect(await setupTokenUsable(store, tokenHash(url![1]!), Date.now())).toBe(true);
      expect(keys("users").out).toBe("No accounts yet: open a setup link (`npm run keys -- setup-link`).\n");
      await store.transaction((tx) => createUser(tx, { email: "ops@example.com", name: "Ops", passwordHash: null, instanceOwner: true, now: Date.UTC(2026, 0, 2) }));
      expect(keys("users").out).toBe("ops@example.com  enabled   instance owner  created 2026-01-02T00:00:00.000Z  Ops\n");
      expect(keys("disable-user", "OPS@example.com")).toMatchObject({ status: 0, out: "Disabled ops@example.com.\n" });
      expect((await findUserByEmail(store, "ops@example.com"))!.disabledAt).not.toBeNull();
      expect(keys("enable-user", "ops@example.com")).toMatchObject({ status: 0, out: "Enabled ops@example.com.\n" });
      expect((await findUserByEmail(store, "ops@example.com"))!.disabledAt).toBeNull();
      expect(keys("disable-user", "nobody@example.com")).toMatchObject({ status: 1, out: "No account with the email nobody@example.com.\n" });
      const audit = await store.all<{ action: string; actor_label: string; target: string }>("SELECT action, actor_label, target FROM audit_log WHERE action LIKE 'user.%' ORDER BY id");
      expect(audit).toEqual([
        { action: "user.disabled", actor_label: "cli", target: "ops@example.com" },
        { action: "user.enabled", actor_label: "cli", target: "ops@example.com" },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
