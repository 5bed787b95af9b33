import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "@/db/client";
import { verifyKey } from "@/db/keys";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-keys-"));
const dbPath = path.join(dir, "faultline.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keys(...args: string[]) {
  const r = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/keys.ts", ...args], {
    env: { ...process.env, FAULTLINE_DB_PATH: dbPath },
    encoding: "utf8",
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("npm run keys", () => {
  it("creates, lists and revokes keys by prefix, never printing a stored secret again", () => {
    const created = keys("create", "ci bot");
    expect(created.status).toBe(0);
    const key = created.out.match(/flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}/)?.[0];
    expect(key).toBeDefined();
    const prefix = key!.slice(0, 12);
    const store = openStore(dbPath);
    expect(verifyKey(store, key!)).toBe("default");

    const listed = keys("list");
    expect(listed.status).toBe(0);
    // On an empty database the command makes the project but only the one key it prints.
    expect(listed.out.trim().split("\n")).toHaveLength(1);
    expect(listed.out).toContain(`${prefix}  active `);
    expect(listed.out).toContain("ci bot");
    expect(listed.out).not.toContain(key!.slice(13));

    expect(keys("revoke", prefix)).toMatchObject({ status: 0, out: `Revoked ${prefix}.\n` });
    expect(verifyKey(store, key!)).toBeNull();
    expect(keys("revoke", prefix)).toMatchObject({ status: 1, out: `No active key with prefix ${prefix}.\n` });
    expect(keys("revoke").status).toBe(2);
    expect(keys("rotate").status).toBe(2);
    store.sqlite.close();
  }, 60_000);
});
