import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey } from "@/db/keys";
import { startServer, type TestServer } from "../helpers/server";
import { runBatch } from "../helpers/storage-probe";

// Issue 25, item 3: a client that keeps reopening slow uploads on one key holds that key's slots
// (FAULTLINE_MAX_INFLIGHT_PER_KEY, set to 16 here, one per attacker) for the whole body deadline, over and over. Waiting for its
// bytes is no work for the server: another key's ingest must go on as if it were not there.
let server: TestServer;
let attackerKey = "";
beforeAll(async () => {
  server = await startServer({
    dialect: inject("serverDialect"),
    env: { FAULTLINE_BODY_TIMEOUT_MS: "2000", FAULTLINE_MAX_INFLIGHT_PER_KEY: "16" },
    seed: async (store) => {
      attackerKey = (await createKey(store, "default", "slow uploader")).key;
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** One upload that trickles a byte every 300 ms until the server answers; resolves with the status. */
function slowUpload(): Promise<number> {
  const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
  let timer: NodeJS.Timeout | undefined;
  let data = "";
  socket.on("connect", () => {
    socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${attackerKey}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`);
    timer = setInterval(() => socket.writable && socket.write(" "), 300);
  });
  return new Promise((resolve) => {
    const done = () => {
      clearInterval(timer);
      socket.destroy();
      resolve(Number(data.slice(9, 12)) || 0);
    };
    socket.on("data", (d: Buffer) => {
      data += d.toString();
      if (data.includes("\r\n\r\n")) done();
    });
    socket.on("close", done);
    socket.on("error", () => undefined);
  });
}

describe("a persistent slow-upload attack on one key", () => {
  it("leaves another key's ingest at least 95 % successful", { timeout: 120_000 }, async () => {
    let attacking = true;
    const attackStatuses: number[] = [];
    const attacker = async () => {
      while (attacking) attackStatuses.push(await slowUpload());
    };
    const attackers = Array.from({ length: 16 }, attacker);
    // The uploads hold their slots first: the attack is under way before the other key sends.
    await new Promise((r) => setTimeout(r, 500));
    const statuses: number[] = [];
    const until = Date.now() + 8000;
    for (let i = 0; Date.now() < until || i < 40; i++) {
      const res = await fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body: runBatch(`victim-${i}`) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    attacking = false;
    await Promise.all(attackers);
    // The attack was real: uploads held their slot to the deadline and were cut off (408).
    expect(attackStatuses.filter((s) => s === 408).length).toBeGreaterThanOrEqual(16);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(accepted / statuses.length, `accepted ${accepted} of ${statuses.length}: ${JSON.stringify(statuses)}`).toBeGreaterThanOrEqual(0.95);
  });
});
