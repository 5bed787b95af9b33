import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { expectRecovered, health, postBatch, runBatch, runIds } from "../helpers/storage-probe";

/**
 * The disk holding the SQLite file fills up under a running server: the file lives on a tmpfs of
 * its own (mounting needs root with CAP_SYS_ADMIN, as the tests run; skipped where that fails),
 * and the test fills what is left with a file of its own, so SQLite's next write fails with
 * SQLITE_FULL for real. FAULTLINE_MIN_FREE_MB=0 turns the free-space check off: health has to learn
 * of the fault from the failed write and of the recovery from its own write probe.
 */
function mountSmallDisk(): string | null {
  const mountPoint = mkdtempSync(path.join(tmpdir(), "faultline-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint], { stdio: "ignore" });
    return mountPoint;
  } catch {
    rmdirSync(mountPoint);
    return null;
  }
}
const mountPoint = mountSmallDisk();

/** Writes a file until the disk refuses more: 1 MiB at a time, then 4 KiB. */
function fillDisk(file: string): void {
  const fd = openSync(file, "w");
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

let server: TestServer;
beforeAll(async () => {
  if (!mountPoint) return;
  server = await startServer({
    sqliteDir: path.join(mountPoint, "db"),
    env: { FAULTLINE_MIN_FREE_MB: "0", FAULTLINE_HEALTH_CHECK_EVERY_MS: "200", FAULTLINE_DRIFT_REFRESH_MS: "3600000", FAULTLINE_DRIFT_MAX_WAIT_MS: "86400000" },
  });
});
afterAll(async () => {
  if (!mountPoint) return;
  await server?.stop();
  execFileSync("umount", [mountPoint]);
  rmdirSync(mountPoint);
});

describe.skipIf(!mountPoint)("a disk that fills up under a running server", () => {
  it("answers 503 + Retry-After, reports degraded, keeps what was stored, and recovers by itself", async () => {
    expect((await postBatch(server, runBatch("before"))).status).toBe(200);
    if (server.store.dialect !== "sqlite") throw new Error("this file is about SQLite's own file");
    // Everything so far goes into the database file and the WAL is emptied: the next write needs new space.
    server.store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const filler = path.join(mountPoint!, "filler");
    fillDisk(filler);

    const refused = await postBatch(server, runBatch("during"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });

    const degraded = await health(server);
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "full" });
    // Health is public: the kind of fault only; where and what to do are in the server's log.
    expect(degraded.body.reason).toBe("the database's disk is full; the server's log says what to do");
    expect(server.output()).toContain(
      `[faultline] storage fault: the disk holding ${server.dbPath} is full (SQLITE_FULL); free space there (retention settings: FAULTLINE_RETENTION_DAYS, FAULTLINE_MAX_SPANS)`,
    );
    expect(await runIds(server)).toEqual(["before"]);

    rmSync(filler);
    await expectRecovered(server);
    expect(server.store.sqlite.pragma("quick_check", { simple: true })).toBe("ok");
  });
});
