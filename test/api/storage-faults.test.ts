import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/db/client";
import { createKey, ensureDefaultProject } from "@/db/keys";
import { startServer, type TestServer } from "../helpers/server";
import { expectRecovered, health, postBatch, runBatch, runIds, until } from "../helpers/storage-probe";

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

describe.skipIf(!canFreeze)("a database that turns read-only under a running server", () => {
  it("answers 503 + Retry-After, reports degraded, keeps what was stored, and recovers by itself", async () => {
    expect((await postBatch(server, runBatch("before"))).status).toBe(200);
    if (server.store.dialect !== "sqlite") throw new Error("this file is about SQLite's own file");
    // Everything so far goes into the database file, so the WAL holds nothing of it.
    server.store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    frozen = [server.dbPath, `${server.dbPath}-wal`];
    chattr("+i", frozen);

    const refused = await postBatch(server, runBatch("during"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });

    // The failed write degrades health at once (io_error); the next file-system check names the cause.
    const degraded = await until(() => health(server), (h) => h.body.database === "read_only");
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "read_only" });
    // Health is public: the kind of fault only; the file and the cause are in the server's log.
    expect(degraded.body.reason).toBe("the database does not take writes; the server's log says why and what to do");
    expect(server.output()).toContain(
      `[faultline] storage fault: the database file ${server.dbPath} or its folder is not writable (EPERM); make both writable for this user (check permissions, immutable attributes and read-only mounts)`,
    );
    // Reads keep working from the file as it was.
    expect(await runIds(server)).toEqual(["before"]);

    chattr("-i", frozen);
    frozen = [];
    await expectRecovered(server);
  });
});

describe.skipIf(!canFreeze)("a server started while its database file was read-only", () => {
  let late: TestServer | undefined;
  let file = "";
  afterAll(async () => {
    if (file) chattr("-i", [file]);
    await late?.stop();
  });

  it("takes ingest again by itself once the file is writable (SQLite kept the first connection read-only)", async () => {
    // The file, its project and key are made first; the server then opens it frozen (SQLite opens a
    // file it cannot write read-only, and that connection stays read-only after the file thaws).
    const dir = mkdtempSync(path.join(tmpdir(), "faultline-ro-"));
    file = path.join(dir, "faultline.db");
    const seeded = await openStore(file);
    await ensureDefaultProject(seeded);
    const { key } = await createKey(seeded, "default", "ro key");
    await seeded.close();
    chattr("+i", [file]);
    late = await startServer({ env: { FAULTLINE_DB_PATH: file, FAULTLINE_HEALTH_CHECK_EVERY_MS: "200" }, ready: "answering" });
    const post = () => fetch(`${late!.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: runBatch("thawed") });
    expect((await post()).status).toBe(503);
    expect((await health(late)).body).toMatchObject({ status: "degraded", database: "read_only", reason: "the database does not take writes; the server's log says why and what to do" });

    chattr("-i", [file]);
    file = "";
    const recovered = await until(post, (res) => res.status === 200);
    expect([recovered.status, await recovered.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    expect((await until(() => health(late!), (h) => h.status === 200)).body).toMatchObject({ status: "ok", database: "ok" });
  });
});
