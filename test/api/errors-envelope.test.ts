import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type ProjectServer } from "../helpers/project";

// Every API error a client can cause answers the JSON envelope with an exact status; nothing a
// client sends becomes a 500, and no answer quotes the request body.
let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Date.now() - 60_000;
const at = Math.floor(T / 1000);
const DEPTH = 10_000;
const deepArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH);

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers },
    body,
  });

const run = (id: string) => `{"type":"run","id":"${id}","run_id":"${id}","agent":"a","started_at":${T},"ended_at":${T + 10},"state":"completed"`;
const tooDeep = (index: number, id: string | null) => ({ index, id, code: "invalid_record", message: "record nests deeper than 64 levels" });

describe("a 10,000-level nesting inside an unknown field", () => {
  it("native ingest: the record is rejected alone (207), the rest stored", async () => {
    const body = `{"records":[${run("ok-1")}},${run("deep-1")},"extra":${deepArray}},${run("deep-2")},"extra":${deepObject}}]}`;
    const res = await post("/api/v1/ingest", body);
    expect([res.status, await res.json()]).toEqual([207, { accepted: 1, duplicates: 0, rejected: [tooDeep(1, "deep-1"), tooDeep(2, "deep-2")] }]);
  });

  it("native ingest: in the resource block and at the top level it is ignored like any unknown field", async () => {
    const body = `{"resource":{"service":"s","extra":${deepArray}},"extra":${deepObject},"records":[${run("ok-2")}}]}`;
    const res = await post("/api/v1/ingest", body);
    expect([res.status, await res.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
  });

  it("kit formats: spans, run events and published events reject the record alone", async () => {
    const spans = await post("/api/v1/ingest/adk/spans", `{"run_id":"r-deep","spans":[{"id":"sp-d","at":${at},"tool":"t","outcome":"error","extra":${deepArray}}]}`);
    expect([spans.status, await spans.json()]).toEqual([207, { accepted: 0, duplicates: 0, rejected: [tooDeep(0, "sp-d")] }]);
    const events = await post("/api/v1/ingest/adk/run-events", `{"run_id":"r-deep","events":[{"kind":"tool_result","name":"x","at":${at},"usage":${deepObject}}]}`);
    expect([events.status, await events.json()]).toEqual([207, { accepted: 0, duplicates: 0, rejected: [tooDeep(0, null)] }]);
    const published = await post(
      "/api/v1/ingest/adk/published-events",
      `{"events":[{"event_id":"1KDVDNAW4J72E0YJV7MQRWTGX","type":"tool_call_completed","occurred_at":${at},"run_id":"r-d","extra":${deepArray}}]}`,
    );
    expect([published.status, await published.json()]).toEqual([207, { accepted: 0, duplicates: 0, rejected: [tooDeep(0, "1KDVDNAW4J72E0YJV7MQRWTGX")] }]);
  });

  it("OTLP/JSON: a deep unknown field and a deep attribute value answer 200, never 500", async () => {
    const span = `{"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","name":"n","startTimeUnixNano":"${T}000000","endTimeUnixNano":"${T + 5}000000","extra":${deepArray},"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(2000)}{"intValue":"1"}${"]}}".repeat(2000)}}]}`;
    const res = await post("/v1/traces", `{"resourceSpans":[{"scopeSpans":[{"spans":[${span}]}]}]}`);
    expect(res.status).toBe(200);
  });
});

describe("methods a route does not serve: 405 with the envelope and Allow", () => {
  const ingestPaths = ["/api/v1/ingest", "/api/v1/ingest/adk/spans", "/api/v1/ingest/adk/run-events", "/api/v1/ingest/adk/published-events", "/v1/traces"];
  it.each(ingestPaths.flatMap((path) => ["GET", "PUT", "DELETE", "PATCH"].map((method) => [method, path] as const)))("%s %s", async (method, path) => {
    const res = await fetch(`${server.url}${path}`, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: `${method} is not supported here; use POST` } });
  });

  it("HEAD on an ingest path is 405 without a body; OPTIONS lists what is allowed", async () => {
    const head = await fetch(`${server.url}/api/v1/ingest`, { method: "HEAD" });
    expect([head.status, head.headers.get("allow")]).toEqual([405, "POST, OPTIONS"]);
    const options = await fetch(`${server.url}/api/v1/ingest`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
  });

  const readPaths = ["/api/health", "/api/v1/tools", "/api/v1/codes", "/api/v1/runs", "/api/v1/runs/some-run", "/api/v1/overview", "/api/v1/drift/summary", "/api/v1/drift/codes/x/history"];
  it.each(readPaths.flatMap((path) => ["POST", "PUT", "DELETE", "PATCH"].map((method) => [method, path] as const)))("%s %s", async (method, path) => {
    const res = await fetch(`${server.url}${path}`, { method, body: method === "DELETE" ? undefined : "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: `${method} is not supported here; use GET` } });
  });
});

describe("unknown /api paths: 404 with the envelope", () => {
  it.each([
    ["GET", "/api/nope"],
    ["GET", "/api/v1/ingest/adk"],
    ["POST", "/api/v1/ingest/unknown-format"],
    ["DELETE", "/api/v2/tools"],
    ["GET", "/api/v1/runs/r1/extra"],
  ])("%s %s", async (method, path) => {
    const res = await fetch(`${server.url}${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: `no API endpoint at ${path}` } });
  });

  it("answers OTLP signals other than traces with a JSON 404 that says where traces go", async () => {
    const res = await fetch(`${server.url}/v1/logs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "no API endpoint at /v1/logs; Faultline accepts OTLP traces at /v1/traces only" } });
  });

  it("does not shadow the real routes", async () => {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/tools`)).status).toBe(200);
    expect((await post("/api/v1/ingest", `{"records":[${run("shadow-1")}}]}`)).status).toBe(200);
  });
});

describe("error messages never quote the body", () => {
  const secret = "sk_live_quoted_in_the_body";
  it("invalid JSON answers the position, not the text", async () => {
    const res = await post("/api/v1/ingest", `{"records": [${secret}]}`);
    expect([res.status, await res.json()]).toEqual([400, { error: { code: "invalid_json", message: "body is not valid JSON: unexpected character" } }]);
    const positioned = await post("/api/v1/ingest", `{"records": [1,]\n, "x": "${secret}"}`);
    expect(await positioned.json()).toEqual({ error: { code: "invalid_json", message: "body is not valid JSON: unexpected character" } });
    const missingColon = await post("/api/v1/ingest", `{\n"${secret}" 1}`);
    expect(await missingColon.json()).toEqual({
      error: { code: "invalid_json", message: "body is not valid JSON: expected ':' after property name at line 2, column 30 (position 31)" },
    });
    const empty = await post("/api/v1/ingest", "");
    expect(await empty.json()).toEqual({ error: { code: "invalid_json", message: "body is empty; expected a JSON object" } });
  });

  it("OTLP: invalid JSON and protobuf answers name no parser internals", async () => {
    const json = await post("/v1/traces", `{"resourceSpans": ${secret}}`);
    expect([json.status, await json.json()]).toEqual([400, { code: 3, message: "body is not valid JSON: unexpected character", details: [] }]);
    const proto = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/x-protobuf", accept: "application/json" },
      body: new Uint8Array([0x0a, 0x10, 0x01, 0x02]),
    });
    expect(proto.status).toBe(400);
    const text = new TextDecoder().decode(new Uint8Array(await proto.arrayBuffer()));
    expect(text).toContain("body is not a protobuf ExportTraceServiceRequest: truncated: a field runs past the end of the body");
    expect(text).not.toContain("index out of range");
  });
});

describe("addresses Next would answer outside the envelope (issue 25)", () => {
  // node:http sends the path as written: fetch (WHATWG URL) would resolve dot segments first.
  const get = (path: string) =>
    new Promise<Response>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const req = request({ hostname, port, path, method: "GET" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: { "content-type": String(res.headers["content-type"] ?? "") } })));
      });
      req.on("error", reject);
      req.end();
    });
  const envelope = async (res: Response) => [res.status, res.headers.get("content-type"), await res.json()];

  it("a malformed percent-escape in an API path is a 400 in the envelope", async () => {
    for (const path of ["/api/v1/runs/%ZZ", "/api/v1/runs/%E0", "/api/v1/tools/%", "/api/v1/ingest/%C3%28"]) {
      expect([path, ...(await envelope(await get(path)))]).toEqual([
        path,
        400,
        "application/json",
        { error: { code: "bad_request", message: "the address has a malformed percent-escape: each % must be followed by two hex digits of UTF-8" } },
      ]);
    }
  });

  it("a malformed percent-escape in a page path is a 400 page", async () => {
    for (const path of ["/runs/%ZZ", "/tools/%E0"]) {
      const res = await get(path);
      expect([path, res.status, res.headers.get("content-type")]).toEqual([path, 400, "text/html; charset=utf-8"]);
      expect(await res.text()).toContain("Malformed address");
    }
  });

  it("a dot segment in an API path is a 400 in the envelope, the bare /api a 404", async () => {
    for (const path of ["/api/v1/../v1/projects", "/api/v1/./projects", "/api/v1/%2e%2e/health"]) {
      expect([path, ...(await envelope(await get(path)))]).toEqual([
        path,
        400,
        "application/json",
        { error: { code: "bad_request", message: "the address has a '.' or '..' segment; send the resolved path" } },
      ]);
    }
    for (const path of ["/api", "/api/"]) {
      expect([path, ...(await envelope(await get(path)))]).toEqual([
        path,
        404,
        "application/json",
        { error: { code: "not_found", message: "no API answers at /api; the read and ingest APIs live under /api/v1" } },
      ]);
    }
  });
});
