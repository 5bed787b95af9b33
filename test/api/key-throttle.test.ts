import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey, revokeKey } from "@/db/keys";
import { startServer, type TestServer } from "../helpers/server";
import { runBatch } from "../helpers/storage-probe";

// Issue 25, item 2: an agent left on a revoked key after a rotation, on the same address as every
// other agent (loopback, NAT, a proxy without FAULTLINE_TRUST_PROXY), must not stop their ingest.
// A server of its own: its throttles are per process, and this file fills them on purpose.
let server: TestServer;
let revoked = "";
let readKey = "";
beforeAll(async () => {
  server = await startServer({
    dialect: inject("serverDialect"),
    seed: async (store) => {
      const old = await createKey(store, "default", "before the rotation");
      await revokeKey(store, old.prefix);
      revoked = old.key;
      readKey = (await createKey(store, "default", "ci", "read")).key;
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

const ingest = (key: string, id: string) =>
  fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: runBatch(id) });

describe("a revoked key retried from a shared address", () => {
  it("is refused (401, then 429 + Retry-After once it failed 10 times) while a valid key from the same address is accepted", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await ingest(revoked, `stale-${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(90).fill(429));
    const stale = await ingest(revoked, "stale-last");
    expect(Number(stale.headers.get("retry-after"))).toBeGreaterThan(0);

    const valid = await ingest(server.key, "valid-after-100");
    expect([valid.status, await valid.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    // The CI reads take read keys under the same rule.
    const contract = (key: string) => fetch(`${server.url}/api/v1/codes/contract?project=default&release=1.0.0`, { headers: { authorization: `Bearer ${key}` } });
    const refused: number[] = [];
    for (let i = 0; i < 12; i++) refused.push((await contract(revoked)).status);
    expect(refused).toEqual([...Array(10).fill(401), 429, 429]);
    // Let in: the answer is about the release (no calls recorded in it), not about the key.
    const reader = await contract(readKey);
    expect([reader.status, await reader.json()]).toEqual([404, { error: { code: "not_found", message: "no tool call of default was recorded in release 1.0.0" } }]);
    // Nothing of the stale agent's batches was stored.
    expect((await server.store.all<{ run_id: string }>("SELECT run_id FROM runs ORDER BY run_id")).map((r) => r.run_id)).toEqual(["valid-after-100"]);
  });
});
