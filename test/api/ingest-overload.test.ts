import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

// Servers of their own, not the shared one: one refuses every ingest (in-flight limit 0), the
// other has its whole database locked by the test. Both start at once to save a start-up.
let refusing: TestServer;
let lockable: TestServer;
beforeAll(async () => {
  [refusing, lockable] = await Promise.all([
    startServer({ env: { FAULTLINE_MAX_INFLIGHT: "0" } }),
    startServer({ env: { FAULTLINE_BUSY_TIMEOUT_MS: "100" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([refusing?.stop(), lockable?.stop()]);
});

const T = Date.now() - 60_000;
const body = JSON.stringify({
  records: [{ type: "run", id: "r1", run_id: "run-1", agent: "a", started_at: T, state: "running" }],
});
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
    server.store.sqlite.exec("BEGIN EXCLUSIVE");
    const locked = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: body.replaceAll('"r1"', '"r2"').replaceAll("run-1", "run-2"),
    });
    server.store.sqlite.exec("COMMIT");
    expect(locked.status).toBe(503);
    expect(locked.headers.get("retry-after")).toBe("5");
    expect(await locked.json()).toEqual({ error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } });
    const runs = server.store.sqlite.prepare("SELECT run_id FROM runs ORDER BY run_id").all();
    expect(runs).toEqual([{ run_id: "run-1" }]);
    const retry = await post(server);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
  });
});
