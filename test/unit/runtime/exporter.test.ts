import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ingestBatchSchema, type IngestRecord } from "../../../lib/contracts";
import { Exporter, VirtualTime, parseRetryAfter, seededRandom, type ExporterOptions, type FetchLike } from "../../../lib/runtime";
import { T0 } from "./helpers";

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | "network";

type Body = { resource?: unknown; records?: IngestRecord[]; resourceSpans?: unknown };

/** Decodes a request body the way the server does: gunzip when Content-Encoding says gzip. */
function decode(init: Parameters<FetchLike>[1]): { json: string; raw: string | Uint8Array } {
  if (init.headers["content-encoding"] === "gzip") {
    expect(init.body).toBeInstanceOf(Uint8Array);
    return { json: gunzipSync(init.body as Uint8Array).toString("utf8"), raw: init.body };
  }
  expect(typeof init.body).toBe("string");
  return { json: init.body as string, raw: init.body };
}

function fakeServer(replies: Reply[]) {
  const requests: { at: number; url: string; headers: Record<string, string>; json: string; raw: string | Uint8Array; body: Body }[] = [];
  let time: VirtualTime | undefined;
  const fetch: FetchLike = async (url, init) => {
    const { json, raw } = decode(init);
    requests.push({ at: time?.now() ?? 0, url, headers: init.headers, json, raw, body: JSON.parse(json) as Body });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
    if (reply === "network") throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3000"), { code: "ECONNREFUSED" }) });
    return {
      status: reply.status,
      headers: { get: (n: string) => reply.headers?.[n.toLowerCase()] ?? null },
      text: async () => (reply.body === undefined ? "" : JSON.stringify(reply.body)),
    };
  };
  return { fetch, requests, bind: (t: VirtualTime) => (time = t) };
}

function span(i: number): Extract<IngestRecord, { type: "tool_call_span" }> {
  return {
    type: "tool_call_span",
    id: `span_${i}`,
    run_id: "run_1",
    call_id: `call_${i}`,
    tool: "book",
    attempt: 1,
    started_at: T0,
    ended_at: T0 + 10,
    outcome: "ok",
  };
}

function setup(replies: Reply[], options: Partial<ExporterOptions> = {}) {
  const time = new VirtualTime(T0);
  const server = fakeServer(replies);
  server.bind(time);
  const exporter = new Exporter({
    endpoint: "http://127.0.0.1:3000/",
    apiKey: "fl_test_key",
    resource: { service: "support-agent", release: "1.4.0" },
    fetch: server.fetch,
    clock: time,
    scheduler: time,
    random: seededRandom(3),
    ...options,
  });
  const invariant = () => {
    const s = exporter.stats();
    expect(s.produced).toBe(s.sent + s.queued + s.droppedTotal + s.unconfirmed);
  };
  return { time, server, exporter, invariant };
}

const ok = (n: number): Reply => ({ status: 200, body: { accepted: n, duplicates: 0, rejected: [] } });

describe("Exporter", () => {
  it("posts {resource, records} with the bearer key to /api/v1/ingest, batching by count", async () => {
    const { exporter, server, invariant } = setup([ok(3)], { maxBatchSize: 3 });
    for (let i = 0; i < 7; i++) exporter.record(span(i));
    await exporter.flush();
    expect(server.requests.map((r) => r.body.records!.length)).toEqual([3, 3, 1]);
    const first = server.requests[0]!;
    expect(first.url).toBe("http://127.0.0.1:3000/api/v1/ingest");
    expect(first.headers.authorization).toBe("Bearer fl_test_key");
    expect(ingestBatchSchema.safeParse(first.body).success).toBe(true);
    expect(first.body.resource).toEqual({ sdk: { name: "faultline-runtime", version: "0.1.0" }, service: "support-agent", release: "1.4.0" });
    expect(exporter.stats()).toMatchObject({ produced: 7, sent: 7, queued: 0, droppedTotal: 0 });
    invariant();
  });

  it("sends a partial batch after the flush interval, not before", async () => {
    // Manual virtual time: the interval is stepped explicitly, with no wall-clock wait to outrace gzip.
    const time = new VirtualTime(T0, { auto: false });
    const server = fakeServer([ok(1)]);
    server.bind(time);
    const exporter = new Exporter({ endpoint: "http://x", apiKey: "k", fetch: server.fetch, clock: time, scheduler: time, flushIntervalMs: 5000 });
    exporter.record(span(1));
    time.advance(4999);
    await new Promise(setImmediate); // one turn of the event loop: a send already started would reach fetch
    expect(server.requests).toHaveLength(0);
    time.advance(1);
    await exporter.flush();
    expect(server.requests.map((r) => r.at)).toEqual([T0 + 5000]);
    expect(exporter.stats().sent).toBe(1);
  });

  it("batches by bytes", async () => {
    const { exporter, server } = setup([ok(1)], { maxBatchBytes: 400 });
    for (let i = 0; i < 4; i++) exporter.record(span(i));
    await exporter.flush();
    expect(server.requests.length).toBeGreaterThan(1);
    for (const r of server.requests) expect(JSON.stringify(r.body.records).length).toBeLessThanOrEqual(400);
  });

  it("bounds the queue and counts overflow drops; produced = sent + queued + dropped", async () => {
    const { exporter, invariant } = setup(["network"], { maxQueueSize: 5, maxBatchSize: 100, maxAttempts: 2 });
    for (let i = 0; i < 12; i++) exporter.record(span(i));
    expect(exporter.stats()).toMatchObject({ produced: 12, queued: 5, dropped: expect.objectContaining({ queue_overflow: 7 }) });
    invariant();
    await exporter.flush();
    expect(exporter.stats()).toMatchObject({ sent: 0, queued: 0, dropped: expect.objectContaining({ queue_overflow: 7, network_error: 5 }) });
    invariant();
  });

  it("honours 429 Retry-After exactly, never earlier", async () => {
    const { exporter, server, invariant } = setup([{ status: 429, headers: { "retry-after": "7" } }, ok(1)]);
    exporter.record(span(1));
    await exporter.flush();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBe(7000);
    expect(exporter.stats()).toMatchObject({ sent: 1, retries: 1 });
    invariant();
  });

  it("retries 5xx and network errors with jittered backoff, then succeeds", async () => {
    const { exporter, server } = setup(["network", { status: 503 }, ok(1)]);
    exporter.record(span(1));
    await exporter.flush();
    const gaps = server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(800);
    expect(gaps[0]).toBeLessThanOrEqual(1200);
    expect(gaps[1]).toBeGreaterThanOrEqual(1200);
    expect(gaps[1]).toBeLessThanOrEqual(1800);
    expect(exporter.stats().sent).toBe(1);
  });

  it("treats a 207's rejected records as final (never resent)", async () => {
    const rejected = [0, 2, 2, 99].map((index) => ({ index, id: `span_${index}`, code: "invalid_record", message: "x" }));
    const { exporter, server, invariant } = setup([{ status: 207, body: { accepted: 8, duplicates: 1, rejected } }]);
    for (let i = 0; i < 10; i++) exporter.record(span(i));
    await exporter.flush();
    expect(server.requests).toHaveLength(1);
    expect(exporter.stats()).toMatchObject({ sent: 8, duplicates: 1, dropped: expect.objectContaining({ rejected: 2 }) });
    invariant();
  });

  it.each([400, 401, 415])("drops a batch answered %i without retrying", async (status) => {
    const { exporter, server, invariant } = setup([{ status }]);
    exporter.record(span(1));
    await exporter.flush();
    expect(server.requests).toHaveLength(1);
    expect(exporter.stats().dropped.client_error).toBe(1);
    invariant();
  });

  it("splits a batch once on 413, then drops what still does not fit", async () => {
    const { exporter, server, invariant } = setup([{ status: 413 }, ok(2), { status: 413 }]);
    for (let i = 0; i < 4; i++) exporter.record(span(i));
    await exporter.flush();
    expect(server.requests.map((r) => r.body.records!.length)).toEqual([4, 2, 2]);
    expect(exporter.stats()).toMatchObject({ sent: 2, dropped: expect.objectContaining({ payload_too_large: 2 }) });
    invariant();
  });

  it("drops a batch whose Retry-After is beyond the cap instead of waiting", async () => {
    const { exporter, invariant } = setup([{ status: 503, headers: { "retry-after": "3600" } }]);
    exporter.record(span(1));
    await exporter.flush();
    expect(exporter.stats().dropped.retry_after_too_long).toBe(1);
    invariant();
  });

  it("shutdown flushes within its deadline, then drops and counts the rest; later records are dropped", async () => {
    const { exporter, invariant } = setup([{ status: 503, headers: { "retry-after": "60" } }]);
    exporter.record(span(1));
    exporter.record(span(2));
    await exporter.shutdown({ timeoutMs: 2000 });
    expect(exporter.stats()).toMatchObject({ sent: 0, queued: 0, dropped: expect.objectContaining({ shutdown: 2 }) });
    exporter.record(span(3));
    expect(exporter.stats().dropped.shutdown).toBe(3);
    invariant();
  });

  it("never throws into agent code, even for unserialisable or oversized records", async () => {
    const { exporter, invariant } = setup([ok(1)]);
    const cyclic = { ...span(1) } as Record<string, unknown>;
    cyclic.self = cyclic;
    expect(() => exporter.record(cyclic as unknown as IngestRecord)).not.toThrow();
    expect(() => exporter.record({ ...span(2), extra: "x".repeat(70_000) } as IngestRecord)).not.toThrow();
    expect(exporter.stats().dropped).toMatchObject({ serialize_error: 1, record_too_large: 1 });
    invariant();
    const throwing = setup([ok(1)], { fetch: () => { throw new Error("sync throw"); }, maxAttempts: 1 });
    throwing.exporter.record(span(1));
    await expect(throwing.exporter.flush()).resolves.toBeUndefined();
    expect(throwing.exporter.stats().dropped.network_error).toBe(1);
  });

  it("emits OTLP/HTTP JSON with GenAI and faultline.* attributes to /v1/traces", async () => {
    const { exporter, server } = setup([{ status: 200, body: { partialSuccess: { rejectedSpans: "1" } } }], { format: "otlp" });
    exporter.record({ ...span(1), outcome: "failed", code: "rate_limited", error_class: "ToolFailure", retryable: true, retry_after_ms: 2000, backoff_ms: 2000, decision: "retried" });
    exporter.record(span(2));
    await exporter.flush();
    const req = server.requests[0]!;
    expect(req.url).toBe("http://127.0.0.1:3000/v1/traces");
    const body = req.body.resourceSpans as { scopeSpans: { spans: { name: string; traceId: string; spanId: string; status: { code: number }; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[];
    const s = body[0]!.scopeSpans[0]!.spans[0]!;
    const attrs = Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    expect(s.name).toBe("execute_tool book");
    expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(s.status.code).toBe(2);
    expect(attrs).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "book",
      "gen_ai.tool.call.id": "call_1",
      "error.type": "rate_limited",
      "faultline.run_id": "run_1",
      "faultline.attempt": "1",
      "faultline.outcome": "failed",
      "faultline.code": "rate_limited",
      "faultline.retryable": true,
      "faultline.retry_after_ms": "2000",
      "faultline.backoff_ms": "2000",
      "faultline.decision": "retried",
    });
    expect(exporter.stats()).toMatchObject({ sent: 1, dropped: expect.objectContaining({ rejected: 1 }) });
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates, ignores garbage", () => {
    expect(parseRetryAfter("7", 0)).toBe(7000);
    expect(parseRetryAfter("1.5", 0)).toBe(1500);
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
  });
});

describe("Exporter compression", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("gzips by default: Content-Encoding gzip, and the gunzipped body holds exactly the records", async () => {
    const { exporter, server, invariant } = setup([ok(3)]);
    const records = [span(1), { ...span(2), outcome: "timed_out" as const, abandoned: true }, { ...span(3), message: "naïve café ✓" }];
    for (const r of records) exporter.record(r);
    await exporter.flush();
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.headers).toEqual({ "content-type": "application/json", authorization: "Bearer fl_test_key", "content-encoding": "gzip" });
    expect([...(req.raw as Uint8Array).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(req.body).toEqual({ resource: { sdk: { name: "faultline-runtime", version: "0.1.0" }, service: "support-agent", release: "1.4.0" }, records });
    expect(ingestBatchSchema.safeParse(req.body).success).toBe(true);
    expect(exporter.stats()).toMatchObject({ sent: 3, droppedTotal: 0 });
    invariant();
  });

  it("compresses once per batch: a retry resends the same bytes", async () => {
    const { exporter, server } = setup([{ status: 503 }, ok(2)]);
    exporter.record(span(1));
    exporter.record(span(2));
    await exporter.flush();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.raw).toBe(server.requests[0]!.raw);
    expect(server.requests[1]!.body.records).toEqual([span(1), span(2)]);
  });

  it("applies maxBatchBytes to the uncompressed JSON", async () => {
    const one = JSON.stringify(span(1)).length;
    const { exporter, server } = setup([ok(2)], { maxBatchBytes: 2 * one + 5 });
    for (let i = 1; i <= 5; i++) exporter.record(span(i));
    await exporter.flush();
    // Compressed, all five would fit in one request; the limit counts what the server decompresses.
    expect(server.requests.map((r) => r.body.records!.map((x) => x.id))).toEqual([["span_1", "span_2"], ["span_3", "span_4"], ["span_5"]]);
    for (const r of server.requests) expect((r.raw as Uint8Array).byteLength).toBeLessThan(r.json.length);
  });

  it('compression: "none" sends the JSON text without Content-Encoding', async () => {
    const { exporter, server } = setup([ok(1)], { compression: "none" });
    exporter.record(span(1));
    await exporter.flush();
    const req = server.requests[0]!;
    expect(req.headers["content-encoding"]).toBeUndefined();
    expect(req.raw).toBe(`{"resource":{"sdk":{"name":"faultline-runtime","version":"0.1.0"},"service":"support-agent","release":"1.4.0"},"records":[${JSON.stringify(span(1))}]}`);
  });

  it("defaults to none where the platform has no CompressionStream, even when gzip is asked for", async () => {
    vi.stubGlobal("CompressionStream", undefined);
    for (const compression of [undefined, "gzip" as const]) {
      const { exporter, server } = setup([ok(1)], compression ? { compression } : {});
      exporter.record(span(1));
      await exporter.flush();
      expect(server.requests[0]!.headers["content-encoding"]).toBeUndefined();
      expect(typeof server.requests[0]!.raw).toBe("string");
    }
  });

  it("sends the batch uncompressed, and says so once, when compression fails", async () => {
    class BrokenCompressionStream {
      readonly writable = new WritableStream<Uint8Array>();
      readonly readable = new ReadableStream<Uint8Array>({ start: (c) => c.error(new Error("zlib exploded")) });
    }
    vi.stubGlobal("CompressionStream", BrokenCompressionStream);
    const errors: string[] = [];
    const { exporter, server, invariant } = setup([ok(1)], { onError: (m) => errors.push(m) });
    exporter.record(span(1));
    await exporter.flush();
    expect(server.requests[0]!.headers["content-encoding"]).toBeUndefined();
    expect(server.requests[0]!.body.records).toEqual([span(1)]);
    expect(errors).toEqual(["gzip failed; sending this batch uncompressed"]);
    expect(exporter.stats()).toMatchObject({ sent: 1, droppedTotal: 0 });
    invariant();
  });
});

describe("Exporter: a request that outlives requestTimeoutMs", () => {
  // No shutdown anywhere below: the per-request timeout alone must settle the batch.
  function hanging(honoursSignal: boolean) {
    const time = new VirtualTime(T0);
    const startedAt: number[] = [];
    const errors: string[] = [];
    const fetch: FetchLike = (_url, init) => {
      startedAt.push(time.now());
      return new Promise((_resolve, reject) => {
        if (honoursSignal) init.signal.addEventListener("abort", () => reject(init.signal.reason), { once: true });
      });
    };
    const exporter = new Exporter({
      endpoint: "http://x",
      apiKey: "k",
      fetch,
      clock: time,
      scheduler: time,
      compression: "none",
      requestTimeoutMs: 1000,
      maxAttempts: 2,
      baseBackoffMs: 500,
      random: () => 0.5, // jitter factor exactly 1: the backoff is baseBackoffMs
      onError: (m) => errors.push(m),
    });
    return { time, startedAt, errors, exporter };
  }

  it.each([
    ["a fetch that rejects on abort", true],
    ["a fetch that ignores its signal", false],
  ])("%s: each attempt is cut at the timeout, and after the last the records count as unconfirmed", async (_label, honours) => {
    const { time, startedAt, errors, exporter } = hanging(honours);
    exporter.record(span(1));
    exporter.record(span(2));
    await exporter.flush();
    // Attempt 1 at T0, cut at +1000; backoff 500; attempt 2 at +1500, cut at +2500.
    expect(startedAt).toEqual([T0, T0 + 1500]);
    expect(time.now()).toBe(T0 + 2500);
    const s = exporter.stats();
    expect(s).toMatchObject({ produced: 2, sent: 0, queued: 0, queuedBytes: 0, droppedTotal: 0, unconfirmed: 2, requests: 2, retries: 1 });
    expect(s.dropped.network_error).toBe(0);
    expect(errors).toEqual([
      "network error: request aborted (timeout)",
      "network error: request aborted (timeout)",
      "2 record(s) unconfirmed: the server may have stored them but its answer was lost",
    ]);
    // Nothing is left running: no timer of the exporter's remains on the virtual clock.
    expect(time.pending).toBe(0);
  });
});
