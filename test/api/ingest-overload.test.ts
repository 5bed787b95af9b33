import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Store } from "@/db/client";
import { startServer, type TestServer } from "../helpers/server";

// Servers of their own, not the shared one: one refuses every ingest (in-flight limit 0), the
// other has its whole database locked by the test. Both start at once to save a start-up.
const dialect = inject("serverDialect");
// How long the server waits for a lock: SQLite's busy timeout, PostgreSQL's lock_timeout (both from
// FAULTLINE_BUSY_TIMEOUT_MS).
const SHORT_LOCK_WAIT = { FAULTLINE_BUSY_TIMEOUT_MS: "100" };
let refusing: TestServer;
let lockable: TestServer;
beforeAll(async () => {
  [refusing, lockable] = await Promise.all([
    startServer({ dialect, env: { FAULTLINE_MAX_INFLIGHT: "0" } }),
    startServer({ dialect, env: SHORT_LOCK_WAIT }),
  ]);
});
afterAll(async () => {
  await Promise.all([refusing?.stop(), lockable?.stop()]);
});

const T = Date.now() - 60_000;
const body = JSON.stringify({
  records: [{ type: "run", id: "r1", run_id: "run-1", agent: "a", started_at: T, state: "running" }],
});

/**
 * Holds a lock the server's ingest of a run cannot get past until the returned function releases
 * it: the SQLite file's exclusive lock, or on PostgreSQL an exclusive lock on `runs` in a
 * transaction of a connection of our own (one table only: locking several in a row could deadlock
 * with the server's background jobs).
 */
async function lockDatabase(store: Store): Promise<() => Promise<void>> {
  if (store.dialect === "sqlite") {
    store.sqlite.exec("BEGIN EXCLUSIVE");
    return async () => void store.sqlite.exec("COMMIT");
  }
  const client = await store.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("LOCK TABLE runs IN ACCESS EXCLUSIVE MODE");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release();
    throw error;
  }
  return async () => {
    await client.query("COMMIT");
    client.release();
  };
}

const post = (s: TestServer) =>
  fetch(`${s.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.key}`, "content-type": "application/json" },
    body,
  });

describe("ingest under pressure", () => {
  it("answers 429 with Retry-After when the in-flight limit is reached", async () => {
    const res = await post(refusing);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: "too many concurrent ingest requests (0); retry later" } });
  });

  it("answers 503 with Retry-After while the database is locked, then accepts again", async () => {
    const server = lockable;
    expect((await post(server)).status).toBe(200);
    const unlock = await lockDatabase(server.store);
    const locked = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: body.replaceAll('"r1"', '"r2"').replaceAll("run-1", "run-2"),
    }).finally(unlock);
    expect(locked.status).toBe(503);
    expect(locked.headers.get("retry-after")).toBe("5");
    expect(await locked.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });
    const runs = await server.store.all("SELECT run_id FROM runs ORDER BY run_id");
    expect(runs).toEqual([{ run_id: "run-1" }]);
    const retry = await post(server);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
  });
});
