import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Date.now() - 60_000;
const resource = { service: "support-agent", release: "2026.11.3", sdk: { name: "faultline-runtime", version: "0.1.0" }, environment: "prod" };
const designExample = (suffix: string) => ({
  resource,
  records: [
    { type: "run", id: `run-rec-${suffix}`, run_id: `run-${suffix}`, agent: "support-agent", started_at: T, ended_at: T + 5000, state: "completed" },
    { type: "tool_call_span", id: `span-${suffix}`, trace_id: "t1", parent_span_id: null, run_id: `run-${suffix}`, call_id: "toolu_01", tool: "cancel_booking", tool_version: "1.2.0", attempt: 1, started_at: T, ended_at: T + 30, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, retry_after_ms: 2000, backoff_ms: 2000, permitted: true, abandoned: false },
    { type: "tool_error", id: `evt-${suffix}`, run_id: `run-${suffix}`, call_id: "toolu_01", tool: "cancel_booking", code: "booking_not_cancellable", error_class: "ToolRefusal", retryable: false, attempts: 1, decision: "delivered", told: "booking_not_cancellable: this fare is non-refundable", occurred_at: T + 2100 },
  ],
});

function post(body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
}
const count = async (table: string) => (await server.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`, [server.project]))?.n;

describe("POST /api/v1/ingest against next start", () => {
  it("answers health with the migration state", async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const journal = JSON.parse(readFileSync(`db/migrations/${server.dialect}/meta/_journal.json`, "utf8")) as { entries: unknown[] };
    expect(journal.entries.length).toBeGreaterThanOrEqual(2);
    const migrations = { applied: journal.entries.length, expected: journal.entries.length };
    // PostgreSQL adds its connection pool's counts, which move with the load of the moment.
    const pool = server.dialect === "postgres" ? { pool: expect.objectContaining({ max: expect.any(Number) }) } : {};
    expect(await res.json()).toEqual({ status: "ok", database: "ok", dialect: server.dialect, migrations, ...pool });
  });

  it("stores the DESIGN.md example: 200 and every record stored", async () => {
    const res = await post(JSON.stringify(designExample("a")));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    const spanRow = await server.store.get(`SELECT tool, release, service, environment, sdk_name, sdk_version, retry_after_ms FROM ${SPANS} WHERE project_id = ? AND span_id = 'span-a'`, [server.project]);
    expect(spanRow).toEqual({ tool: "cancel_booking", release: "2026.11.3", service: "support-agent", environment: "prod", sdk_name: "faultline-runtime", sdk_version: "0.1.0", retry_after_ms: 2000 });
  });

  it("stores the same batch once; the second answer reports duplicates", async () => {
    const body = JSON.stringify(designExample("b"));
    expect(await (await post(body)).json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    const spans = await count("tool_call_spans");
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, duplicates: 3, rejected: [] });
    expect(await count("tool_call_spans")).toBe(spans);
  });

  it("answers 207 for a mixed batch and stores exactly the valid records", async () => {
    const batch = designExample("c");
    batch.records.push({ type: "metric", id: "m-1" } as never, { ...batch.records[1], id: "span-c-bad", attempt: 0 } as never);
    const res = await post(JSON.stringify(batch));
    expect(res.status).toBe(207);
    expect(await res.json()).toEqual({
      accepted: 3,
      duplicates: 0,
      rejected: [
        { index: 3, id: "m-1", code: "unknown_type", message: "type must be one of run, tool_call_span, tool_error" },
        { index: 4, id: "span-c-bad", code: "invalid_record", message: "attempt: must be at least 1" },
      ],
    });
    const stored = await server.store.all("SELECT span_id FROM tool_call_spans WHERE project_id = ? AND run_id = 'run-c'", [server.project]);
    expect(stored).toEqual([{ span_id: "span-c" }]);
  });

  it("accepts a gzip body", async () => {
    const res = await post(gzipSync(JSON.stringify(designExample("gz"))), { "content-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
  });

  it("answers uncompressed and uncached, also to a client that accepts gzip", async () => {
    const res = await post(JSON.stringify(designExample("nt")), { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
  });

  it.each([
    ["a missing key", {}, "missing ingest key: send Authorization: Bearer <key>"],
    ["a wrong key", { authorization: "Bearer flk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" }, "invalid or revoked ingest key"],
    ["an unknown scheme", { authorization: "Token flk_AAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" }, "missing ingest key: send Authorization: Bearer <key>"],
    // Basic carries the key as its password (Langfuse's span processor); without a colon there is none.
    ["Basic without a password", { authorization: "Basic Zm9v" }, "missing ingest key: send Authorization: Bearer <key>"],
    ["a wrong Basic password", { authorization: "Basic Zm9vOmJhcg==" }, "invalid or revoked ingest key"],
  ])("answers 401 for %s and stores nothing", async (_label, headers, message) => {
    const before = await count("tool_call_spans");
    const h: Record<string, string> = { "content-type": "application/json", ...headers };
    const res = await fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: h, body: JSON.stringify(designExample("x")) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message } });
    expect(await count("tool_call_spans")).toBe(before);
  });

  it("accepts the key in x-faultline-key too", async () => {
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "x-faultline-key": server.key, "content-type": "application/json" },
      body: JSON.stringify(designExample("hdr")),
    });
    expect(res.status).toBe(200);
  });

  it("answers 400 with the parser's message for malformed JSON", async () => {
    const res = await post('{"records": [');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_json");
    expect(body.error.message).toMatch(/^body is not valid JSON: /);
  });

  it("answers 400 for an unreadable envelope, naming the field", async () => {
    const res = await post(JSON.stringify({ records: "nope" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "invalid batch: records: Invalid input: expected array, received string", issues: [{ path: "records", message: "Invalid input: expected array, received string" }] },
    });
  });

  it("answers 400 for a batch of 1001 records", async () => {
    const res = await post(JSON.stringify({ records: Array(1001).fill({ type: "run" }) }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("invalid batch: records: must contain at most 1000 records");
  });

  it("answers 415 for a wrong content type or encoding", async () => {
    const a = await post(JSON.stringify(designExample("ct")), { "content-type": "text/plain" });
    expect(a.status).toBe(415);
    expect(await a.json()).toEqual({ error: { code: "unsupported_media_type", message: "content-type must be application/json; got text/plain" } });
    const b = await post(JSON.stringify(designExample("ct")), { "content-encoding": "br" });
    expect(b.status).toBe(415);
  });

  it("answers 413 for a body over 5 MiB, plain or as a gzip bomb", async () => {
    const big = JSON.stringify({ records: [{ type: "run", pad: "x".repeat(5 * 1024 * 1024) }] });
    const a = await post(big);
    expect(a.status).toBe(413);
    expect(await a.json()).toEqual({ error: { code: "payload_too_large", message: "request body exceeds 5242880 bytes" } });
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    const b = await post(bomb, { "content-encoding": "gzip" });
    expect(b.status).toBe(413);
  });

  it("answers 400 for a body that claims gzip but is not", async () => {
    const res = await post("not gzip", { "content-encoding": "gzip" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "bad_request", message: "body is not valid gzip" } });
  });

  it("is harmless with hostile keys and keeps serving", async () => {
    const hostile = JSON.stringify(designExample("proto")).replace('{"resource"', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"resource"');
    const res = await post(hostile);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    const odd = await post(JSON.stringify({ records: [{ type: "tool_call_span", id: "odd", __proto__: null, toString: 1, valueOf: "x" }] }));
    expect(odd.status).toBe(207);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it("never answers 500 to junk bodies", async () => {
    for (const body of ["null", "[]", "1", '"str"', "{}", '{"records":[null,1,"x",[]]}', "\u0000\u0001", "{".repeat(10000)]) {
      const res = await post(body);
      expect([200, 207, 400]).toContain(res.status);
      expect(((await res.json()) as object) ?? null).not.toBeNull();
    }
  });
});
