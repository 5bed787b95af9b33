import { closeSync, openSync, writeSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { health, postBatch, runBatch, until } from "../helpers/storage-probe";

/**
 * The SQLite file of a running server is damaged behind its back (a bad disk, a careless copy): the
 * root page of `runs` is overwritten with garbage. Its scheduled quick_check (every second here)
 * must find it, health report it, ingest stop writing into the file, and reads answer 503 in the
 * error envelope instead of a bare 500.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: { FAULTLINE_QUICK_CHECK_EVERY_MS: "1000", FAULTLINE_DRIFT_REFRESH_MS: "3600000", FAULTLINE_DRIFT_MAX_WAIT_MS: "86400000" },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** Overwrites one page of the file with a byte pattern no b-tree page has. */
function damagePage(file: string, page: number, pageSize: number): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe("a database file damaged under a running server", () => {
  it("reports degraded after its quick_check, pauses ingest with 503, and answers reads in the envelope", async () => {
    expect((await postBatch(server, runBatch("before"))).status).toBe(200);
    if (server.store.dialect !== "sqlite") throw new Error("this file is about SQLite's own file");
    const sqlite = server.store.sqlite;
    // Everything so far goes into the database file, so the damage is not masked by the WAL.
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    const root = sqlite.prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'runs'").pluck().get() as number;
    damagePage(server.dbPath, root, sqlite.pragma("page_size", { simple: true }) as number);
    // A write of our own changes the WAL, so every connection (the server's too) drops its page cache
    // and reads the damaged page from the file from now on.
    sqlite.pragma("user_version = 7");

    // quick_check itself gives up on a root page this damaged: its error code is the verdict.
    const degraded = await until(() => health(server), (h) => h.body.database === "corrupt");
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "corrupt" });
    // Health is public: the kind of fault only; the file and the check's output are in the server's log.
    const reason = "the database is damaged; ingest is paused so that nothing more is written into it; the server's log says what to do";
    expect(degraded.body.reason).toBe(reason);
    expect(server.output()).toContain(
      `[faultline] storage fault: the database file ${server.dbPath} is damaged or is not a SQLite database (quick_check); restore it from a backup, or move it aside to start with an empty one (FAULTLINE_DB_PATH chooses the file): integrity check reported SQLITE_CORRUPT`,
    );

    const refused = await postBatch(server, runBatch("after"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toEqual({ error: { code: "unavailable", message: reason } });

    // Reads that meet the damaged table answer 503 in the envelope; the rest are still served.
    for (const read of ["/api/v1/runs", "/api/v1/runs/before"]) {
      const res = await fetch(`${server.url}${read}`);
      expect({ read, status: res.status, retryAfter: res.headers.get("retry-after") }).toEqual({ read, status: 503, retryAfter: "5" });
      expect(await res.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });
    }
    for (const read of ["/api/v1/drift", "/api/v1/overview"]) {
      const res = await fetch(`${server.url}${read}`);
      expect({ read, status: res.status, type: res.headers.get("content-type") }).toEqual({ read, status: 200, type: "application/json" });
    }
  });
});
