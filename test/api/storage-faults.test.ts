import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

/**
 * The database turns read-only under a running server. Tests run as root, for whom chmod stops
 * nothing; the immutable attribute (`chattr +i`, needs CAP_LINUX_IMMUTABLE and ext4/xfs/btrfs)
 * stops root's writes too, also through descriptors SQLite already holds open (EPERM → SQLite's
 * SQLITE_IOERR_WRITE). It is set on the database and its -wal file, never on the -shm file, which
 * SQLite maps into memory: a write to an immutable mapping kills the process with SIGBUS.
 */
function chattrWorks(): boolean {
  const probe = path.join(mkdtempSync(path.join(tmpdir(), "faultline-chattr-")), "probe");
  writeFileSync(probe, "x");
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(path.dirname(probe), { recursive: true, force: true });
  }
}
const canFreeze = chattrWorks();
const chattr = (flag: "+i" | "-i", files: string[]) => execFileSync("chattr", [flag, ...files]);

let server: TestServer;
let frozen: string[] = [];
beforeAll(async () => {
  if (!canFreeze) return;
  server = await startServer({ env: { FAULTLINE_HEALTH_CHECK_EVERY_MS: "200", FAULTLINE_DRIFT_REFRESH_MS: "3600000", FAULTLINE_DRIFT_MAX_WAIT_MS: "86400000" } });
});
afterAll(async () => {
  if (frozen.length > 0) chattr("-i", frozen);
  await server?.stop();
});

const T = Date.now() - 60_000;
const batch = (id: string) => JSON.stringify({ records: [{ type: "run", id, run_id: id, agent: "a", started_at: T, state: "running" }] });
const post = (body: string) =>
  fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body });
const health = async () => {
  const res = await fetch(`${server.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await probe();
    if (done(value) || i > 300) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const runIds = async () => (await server.store.all<{ run_id: string }>("SELECT run_id FROM runs ORDER BY run_id")).map((r) => r.run_id);

describe.skipIf(!canFreeze)("a database that turns read-only under a running server", () => {
  it("answers 503 + Retry-After, reports degraded, keeps what was stored, and recovers by itself", async () => {
    expect((await post(batch("before"))).status).toBe(200);
    if (server.store.dialect !== "sqlite") throw new Error("this file is about SQLite's own file");
    // Everything so far goes into the database file, so the WAL holds nothing of it.
    server.store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    frozen = [server.dbPath, `${server.dbPath}-wal`];
    chattr("+i", frozen);

    const refused = await post(batch("during"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });

    // The failed write degrades health at once (io_error); the next file-system check names the cause.
    const degraded = await until(health, (h) => h.body.database === "read_only");
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "read_only" });
    expect(degraded.body.reason).toBe(
      `the database file ${server.dbPath} or its folder is not writable (EPERM); make both writable for this user (check permissions, immutable attributes and read-only mounts)`,
    );
    // Reads keep working from the file as it was.
    expect(await runIds()).toEqual(["before"]);

    chattr("-i", frozen);
    frozen = [];
    const recovered = await until(health, (h) => h.status === 200);
    expect(recovered.body).toMatchObject({ status: "ok", database: "ok" });
    const retried = await post(batch("during"));
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await runIds()).toEqual(["before", "during"]);
  });
});
