import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey } from "@/db/keys";
import { startServer, type TestServer } from "../helpers/server";

// One server with short limits: bodies must arrive within 2 s, two slots per key, three wrong
// secrets per address and window, one extra host name, and an admin secret.
const SECRET = "edges-admin-secret-0123";
let server: TestServer;
let otherKey: string;
beforeAll(async () => {
  server = await startServer({
    dialect: inject("serverDialect"),
    env: {
      FAULTLINE_BODY_TIMEOUT_MS: "2000",
      FAULTLINE_MAX_INFLIGHT_PER_KEY: "2",
      FAULTLINE_AUTH_MAX_FAILURES: "3",
      FAULTLINE_AUTH_WINDOW_MS: "600000",
      FAULTLINE_ALLOWED_HOSTS: "faultline.test",
      FAULTLINE_ADMIN_SECRET: SECRET,
    },
    seed: async (store) => {
      otherKey = (await createKey(store, "default", "other")).key;
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

const port = () => Number(new URL(server.url).port);
const T = Date.now() - 60_000;
const batch = (id: string) => JSON.stringify({ records: [{ type: "run", id, run_id: id, agent: "a", started_at: T, state: "running" }] });
const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;

/** A raw HTTP/1.1 exchange (fetch cannot set Host); resolves with the whole answer once the server closes or answers. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (d: Buffer) => {
      data += d.toString();
      const end = data.indexOf("\r\n\r\n");
      const length = data.match(/\r\ncontent-length: (\d+)/i);
      if (end >= 0 && length && data.length >= end + 4 + Number(length[1])) socket.end();
    });
    socket.on("close", () => {
      const end = data.indexOf("\r\n\r\n");
      let body = data.slice(end + 4);
      if (/\r\ntransfer-encoding: chunked/i.test(data.slice(0, end))) body = body.replace(/^[0-9a-f]+\r\n/i, "").replace(/\r\n0\r\n\r\n$/, "");
      resolve({ status: Number(data.slice(9, 12)), headers: data.slice(0, end), body });
    });
    socket.on("error", reject);
  });
}

/**
 * Opens an ingest request whose body trickles in a byte every 300 ms; resolves with what the server
 * answered. A request refused at once for want of a slot (another request of the test took it
 * first: on PostgreSQL the key check awaits the database, so arrival order is not slot order) is
 * opened again, so the answer is that of a request that held a slot.
 */
function slowBody(key: string): Promise<{ status: number; body: string }> {
  const socket = connect(port(), "127.0.0.1");
  let data = "";
  let timer: NodeJS.Timeout | undefined;
  socket.on("connect", () => {
    socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{`);
    timer = setInterval(() => socket.writable && socket.write(" "), 300);
  });
  return new Promise((resolve) => {
    socket.on("data", (d: Buffer) => {
      data += d.toString();
      if (data.startsWith("HTTP/1.1 429")) {
        clearInterval(timer);
        socket.destroy();
        resolve(slowBody(key));
      }
    });
    socket.on("close", () => {
      clearInterval(timer);
      const body = data.slice(data.indexOf("\r\n\r\n") + 4).replace(/^[0-9a-f]+\r\n/i, "").replace(/\r\n0\r\n\r\n$/, "");
      resolve({ status: Number(data.slice(9, 12)), body });
    });
    socket.on("error", () => undefined);
  });
}

const post = (key: string, body: string) =>
  fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });

const MISDIRECTED = { error: { code: "misdirected_request", message: "this host name is not served here; add it to FAULTLINE_ALLOWED_HOSTS to reach Faultline by it" } };

describe("Host header (DNS rebinding)", () => {
  it("answers 421 in the envelope for a name it does not serve, on read APIs and on ingest", async () => {
    const read = await raw(`GET /api/v1/tools HTTP/1.1\r\nHost: rebind.attacker.example:${port()}\r\nAuthorization: ${basic(SECRET)}\r\nConnection: close\r\n\r\n`);
    expect(read.status).toBe(421);
    expect(JSON.parse(read.body)).toEqual(MISDIRECTED);
    const body = batch("rebind");
    const ingest = await raw(
      `POST /api/v1/ingest HTTP/1.1\r\nHost: rebind.attacker.example\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(ingest.status).toBe(421);
    expect(JSON.parse(ingest.body)).toEqual(MISDIRECTED);
    // The CI gate skips the dashboard's proxy (a read key must reach it) and checks the name itself.
    const gate = await raw(`GET /api/v1/gate?release=1.0.0 HTTP/1.1\r\nHost: rebind.attacker.example\r\nAuthorization: ${basic(SECRET)}\r\nConnection: close\r\n\r\n`);
    expect([gate.status, JSON.parse(gate.body)]).toEqual([421, MISDIRECTED]);
  });

  it("serves the loopback names and FAULTLINE_ALLOWED_HOSTS", async () => {
    for (const host of ["localhost", "127.0.0.1", "[::1]", "faultline.test", "FAULTLINE.TEST."]) {
      const res = await raw(`GET /api/v1/projects HTTP/1.1\r\nHost: ${host}:${port()}\r\nAuthorization: ${basic(SECRET)}\r\nConnection: close\r\n\r\n`);
      expect([host, res.status]).toEqual([host, 200]);
    }
  });
});

describe("slow clients", () => {
  it("answers 408 to a body that trickles past the deadline, caps slots per key, and keeps serving others", async () => {
    const slow = [slowBody(server.key), slowBody(server.key)];
    // Both slow requests hold this key's two slots: a third with the key is refused at once …
    const third = await (async () => {
      for (;;) {
        const res = await post(server.key, batch("third"));
        if (res.status !== 200) return res;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("1");
    expect(await third.json()).toEqual({ error: { code: "rate_limited", message: "too many concurrent ingest requests with this key (2); retry later" } });
    // … while another key and health are served.
    const other = await post(otherKey, batch("other"));
    expect(other.status).toBe(200);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    for (const answer of slow) {
      const a = await answer;
      expect(a.status).toBe(408);
      expect(JSON.parse(a.body)).toEqual({
        error: { code: "request_timeout", message: "the request body did not arrive within 2 s; send it faster or in smaller batches" },
      });
    }
    // The slots are free again.
    expect((await post(server.key, batch("after"))).status).toBe(200);
  });
});

describe("wrong secrets are throttled by what was presented and by address", () => {
  it("after three failures of one key: that key and further wrong keys from the address get 429, a right key is let in", async () => {
    const wrong = "flk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    for (let i = 0; i < 3; i++) {
      const res = await post(wrong, batch("w"));
      // The body says which refusal it was, should one of these not be the plain 401.
      expect([i, res.status, await res.text()]).toEqual([i, 401, expect.any(String)]);
    }
    const answer = async (key: string) => {
      const res = await fetch(`${server.url}/api/v1/ingest`, {
        method: "POST",
        // A forged X-Forwarded-For does not give a new address.
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-forwarded-for": `10.9.8.${key.length}` },
        body: batch("w"),
      });
      return { status: res.status, retryAfter: Number(res.headers.get("retry-after")), body: await res.json() };
    };
    const same = await answer(wrong);
    expect([same.status, same.body]).toEqual([429, { error: { code: "rate_limited", message: "this ingest key failed too many times; it is invalid, revoked or expired: retry later with a valid one" } }]);
    expect(same.retryAfter).toBeGreaterThan(500);
    const another = await answer("flk_CCCCCCCC_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD");
    expect([another.status, another.body]).toEqual([429, { error: { code: "rate_limited", message: "too many failed ingest key attempts from this address; retry later" } }]);
    expect(another.retryAfter).toBeGreaterThan(500);
    // Someone else's failures never cost a valid key its ingest (issue 25).
    expect((await answer(server.key)).status).toBe(200);
  });

  it("answers 429 + Retry-After after three wrong admin secrets", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: basic(`wrong-${i}`) } })).status).toBe(401);
    const res = await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: basic(SECRET) } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: "too many failed admin secret attempts from this address; retry later" } });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
