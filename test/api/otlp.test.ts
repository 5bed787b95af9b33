import { context, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otlpType } from "@/lib/ingest/otlp/proto-schema";
import { decodeStatus, decodeTraceResponse } from "@/lib/ingest/otlp/response";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

// A fixed, recent start so stored times can be asserted exactly.
const T = Math.floor((Date.now() - 600_000) / 1000) * 1000;

interface StoredSpan {
  span_id: string; trace_id: string; parent_span_id: string | null; run_id: string; call_id: string; tool: string; release: string | null;
  service: string | null; sdk_name: string | null; sdk_version: string | null; attempt: number | null; started_at: number; ended_at: number;
  outcome: string | null; code: string | null; error_class: string | null; retryable: number | null; retry_after_ms: number | null;
  backoff_ms: number | null; decision: string | null; message: string | null; derived: string | null; source: string;
}
const COLUMNS = `span_id, trace_id, parent_span_id, run_id, call_id, tool, release, service, sdk_name, sdk_version, attempt, started_at,
  ended_at, outcome, code, error_class, retryable, retry_after_ms, backoff_ms, decision, message, derived, source`;
const spansOfTrace = (traceId: string) =>
  server.store.all<StoredSpan>(`SELECT ${COLUMNS} FROM ${SPANS} WHERE project_id = ? AND trace_id = ? ORDER BY started_at, span_id`, [server.project, traceId]);
const countSpans = async () => (await server.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${SPANS} WHERE project_id = ?`, [server.project]))?.n ?? 0;

function provider(exporter: SpanExporter, batch: boolean) {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "travel-agent", "service.version": "2026.11.3" }),
    spanProcessors: [batch ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter)],
  });
}

/** An agent run with a weather call retried as two sibling spans, then a booking call that succeeded. */
async function emitRun(p: BasicTracerProvider, withAttempts: boolean): Promise<string> {
  const tracer = p.getTracer("travel.runtime", "1.4.0");
  const agent = tracer.startSpan("invoke_agent planner", { startTime: T, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "planner" } });
  const ctx = trace.setSpan(context.active(), agent);
  const tool = (start: number, attrs: Record<string, string | number>, fail?: string): Span => {
    const span = tracer.startSpan(`execute_tool ${attrs["gen_ai.tool.name"]}`, { startTime: start, attributes: { "gen_ai.operation.name": "execute_tool", ...attrs } }, ctx);
    if (fail) {
      span.setAttribute("error.type", fail);
      span.setStatus({ code: SpanStatusCode.ERROR, message: `${fail}: upstream said 503` });
    }
    span.end(start + 120);
    return span;
  };
  const attempt = (n: number): Record<string, number> => (withAttempts ? { "faultline.attempt": n } : {});
  tool(T + 100, { "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "call_weather", ...attempt(1) }, "upstream_unavailable");
  tool(T + 700, { "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "call_weather", ...attempt(2) });
  tool(T + 1000, { "gen_ai.tool.name": "book", "gen_ai.tool.call.id": "call_book" });
  agent.end(T + 2000);
  await p.forceFlush();
  await p.shutdown();
  return agent.spanContext().traceId;
}

const headers = () => ({ "x-faultline-key": server.key });

describe("POST /v1/traces from the OpenTelemetry JS SDK", () => {
  it("stores exactly the tool spans sent by the OTLP/HTTP JSON exporter; a retried call without attempt numbers is one call of two attempts", async () => {
    const before = await countSpans();
    const traceId = await emitRun(provider(new JsonExporter({ url: `${server.url}/v1/traces`, headers: headers() }), true), false);
    expect((await countSpans()) - before).toBe(3);
    const rows = await spansOfTrace(traceId);
    const agentSpanId = rows[0]!.parent_span_id;
    expect(agentSpanId).toMatch(/^[0-9a-f]{16}$/);
    // No run attribute and no attempt number: the run is the trace, attempts are numbered by start time.
    const common = { trace_id: traceId, parent_span_id: agentSpanId, run_id: traceId, release: "2026.11.3", service: "planner", sdk_name: "travel.runtime", sdk_version: "1.4.0", error_class: null, retryable: null, retry_after_ms: null, backoff_ms: null, decision: null, derived: "run_id,attempt", source: "otlp" };
    expect(rows.map(({ span_id: _id, ...r }) => r)).toEqual([
      { ...common, call_id: "call_weather", tool: "get_weather", attempt: 1, started_at: T + 100, ended_at: T + 220, outcome: "failed", code: "upstream_unavailable", message: "upstream_unavailable: upstream said 503" },
      { ...common, call_id: "call_weather", tool: "get_weather", attempt: 2, started_at: T + 700, ended_at: T + 820, outcome: "ok", code: null, message: null },
      { ...common, call_id: "call_book", tool: "book", attempt: 1, started_at: T + 1000, ended_at: T + 1120, outcome: "ok", code: null, message: null },
    ]);
    // The weather call failed once, then succeeded: one call, one retry, no failed call.
    const weather = ((await (await fetch(server.at("/api/v1/tools?tool=get_weather"))).json()) as { tools: Record<string, unknown>[] }).tools;
    expect(weather.map((t) => [t.tool, t.calls, t.attempts, t.unnumbered, t.failures, t.callsNotOk, t.maxAttempts, t.retryShare])).toEqual([
      ["get_weather", 1, 2, 0, 1, 0, 2, 1],
    ]);
    const run = ((await (await fetch(server.at("/api/v1/runs?limit=100"))).json()) as { runs: Record<string, unknown>[] }).runs.find((r) => r.runId === traceId)!;
    expect([run.toolCalls, run.attempts, run.retries, run.failedAttempts, run.errors]).toEqual([2, 3, 1, 1, 0]);
  });

  it("stores the same run sent by the protobuf exporter, attempts from faultline.attempt", async () => {
    const traceId = await emitRun(provider(new ProtoExporter({ url: `${server.url}/v1/traces`, headers: headers() }), false), true);
    const rows = await spansOfTrace(traceId);
    expect(rows.map((r) => [r.tool, r.call_id, r.attempt, r.outcome, r.code, r.run_id, r.release, r.service])).toEqual([
      ["get_weather", "call_weather", 1, "failed", "upstream_unavailable", traceId, "2026.11.3", "travel-agent"],
      ["get_weather", "call_weather", 2, "ok", null, traceId, "2026.11.3", "travel-agent"],
      ["book", "call_book", 1, "ok", null, traceId, "2026.11.3", "travel-agent"],
    ]);
    // With SimpleSpanProcessor each span is exported alone, so the agent span is not in the tool
    // span's request: the agent name falls back to the resource's service.name.
  });

  it("stores the agent span exported after its tool spans (BatchSpanProcessor, two exports) as the record of one run", async () => {
    const json = new JsonExporter({ url: `${server.url}/v1/traces`, headers: headers() });
    const exports: string[][] = [];
    const counting: SpanExporter = {
      export: (spans, done) => {
        exports.push(spans.map((sp) => sp.name));
        json.export(spans, done);
      },
      shutdown: () => json.shutdown(),
      forceFlush: () => json.forceFlush(),
    };
    const p = provider(counting, true);
    const tracer = p.getTracer("travel.runtime", "1.4.0");
    const agent = tracer.startSpan("invoke_agent planner", { startTime: T, attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "planner" } });
    const ctx = trace.setSpan(context.active(), agent);
    for (const [start, name] of [[T + 100, "get_weather"], [T + 400, "book"]] as const) {
      tracer.startSpan(`execute_tool ${name}`, { startTime: start, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name } }, ctx).end(start + 50);
    }
    await p.forceFlush();
    agent.end(T + 3000);
    await p.forceFlush();
    await p.shutdown();
    expect(exports).toEqual([["execute_tool get_weather", "execute_tool book"], ["invoke_agent planner"]]);

    const traceId = agent.spanContext().traceId;
    expect((await spansOfTrace(traceId)).map((r) => [r.tool, r.run_id, r.service])).toEqual([
      ["get_weather", traceId, "travel-agent"],
      ["book", traceId, "travel-agent"],
    ]);
    expect(await server.store.all("SELECT record_id, run_id, agent, release, service, started_at, ended_at, state, error, source FROM runs WHERE project_id = ? AND run_id = ?", [server.project, traceId])).toEqual([
      {
        record_id: `${agent.spanContext().spanId}@completed:${T + 3000}`, run_id: traceId, agent: "planner", release: "2026.11.3",
        service: "travel-agent", started_at: T, ended_at: T + 3000, state: "completed", error: null, source: "otlp",
      },
    ]);
    const listed = ((await (await fetch(server.at("/api/v1/runs"))).json()) as { runs: Record<string, unknown>[] }).runs.find((r) => r.runId === traceId);
    // Two calls, counted by call id: these GenAI spans carry no attempt number, each is attempt 1 of its call.
    expect(listed).toEqual({
      runId: traceId, hasRunRecord: true, agent: "planner", release: "2026.11.3", state: "completed", startedAt: T, endedAt: T + 3000,
      durationMs: 3000, toolCalls: 2, attempts: 2, retries: 0, failedAttempts: 0, errors: 0, declined: 0, refused: 0, unansweredToolUses: null,
    });
    // The two tests before this one sent one "book" call each, none with an attempt number: every
    // attempt is numbered (derived), so none is left unnumbered and each call is counted once.
    const tools = ((await (await fetch(server.at(`/api/v1/tools?from=${T}&to=${T + 3_600_000}&tool=book`))).json()) as { tools: Record<string, unknown>[] }).tools;
    expect(tools.map((t) => [t.tool, t.calls, t.attempts, t.unnumbered])).toEqual([["book", 3, 3, 0]]);
  });

  it("does not store a replayed export twice", async () => {
    const body = JSON.stringify(handBuilt([toolSpan("1111111111111111", [s("gen_ai.tool.name", "dup")])]));
    const first = await post(body);
    const n = await countSpans();
    const again = await post(body);
    expect([first.status, again.status, (await countSpans()) - n]).toEqual([200, 200, 0]);
  });
});

// Hand-built OTLP/JSON requests for the edge cases.
const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const TRACE = "0af7651916cd43dd8448eb211c80319c";
function toolSpan(spanId: string, attributes: unknown[], extra: Record<string, unknown> = {}) {
  return {
    traceId: TRACE, spanId, name: "execute_tool", kind: 1, startTimeUnixNano: `${T}000000`, endTimeUnixNano: `${T + 5}000000`,
    attributes: [s("gen_ai.operation.name", "execute_tool"), ...attributes], ...extra,
  };
}
function handBuilt(spans: unknown[]) {
  return { resourceSpans: [{ resource: { attributes: [s("service.name", "edge-agent")] }, scopeSpans: [{ scope: { name: "edge" }, spans }] }] };
}
function post(body: string | Uint8Array, extraHeaders: Record<string, string> = {}) {
  return fetch(`${server.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json", ...headers(), ...extraHeaders }, body: body as BodyInit });
}
const rowOf = (spanId: string) => server.store.get<StoredSpan>(`SELECT ${COLUMNS} FROM ${SPANS} WHERE project_id = ? AND span_id = ?`, [server.project, spanId]);

describe("POST /v1/traces edge cases", () => {
  it("accepts upper-case hex ids, 64-bit integers as strings and numbers, and unknown fields", async () => {
    const res = await post(JSON.stringify({
      resourceSpans: [{
        resource: { attributes: [s("service.name", "edge-agent")], droppedAttributesCount: 0, entityRefs: [{ type: "x" }] },
        scopeSpans: [{
          scope: { name: "edge", version: "9" },
          schemaUrl: "https://opentelemetry.io/schemas/1.30.0",
          spans: [
            toolSpan("AAAAAAAAAAAA0001", [s("gen_ai.tool.name", "a"), { key: "faultline.attempt", value: { intValue: "3" } }], { traceId: TRACE.toUpperCase(), flags: 257, futureField: { nested: true } }),
            toolSpan("aaaaaaaaaaaa0002", [s("gen_ai.tool.name", "b"), { key: "faultline.attempt", value: { intValue: 4 } }, { key: "faultline.retry_after_ms", value: { intValue: "800" } }], {
              startTimeUnixNano: Number(`${T}000000`), endTimeUnixNano: Number(`${T + 7}000000`),
            }),
          ],
        }],
      }],
    }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({});
    expect(await rowOf("aaaaaaaaaaaa0001")).toMatchObject({ trace_id: TRACE, tool: "a", attempt: 3, started_at: T, ended_at: T + 5, sdk_version: "9" });
    expect(await rowOf("aaaaaaaaaaaa0002")).toMatchObject({ tool: "b", attempt: 4, retry_after_ms: 800, started_at: T, ended_at: T + 7 });
  });

  it("rejects a tool span with no tool name in partialSuccess and stores the rest", async () => {
    const res = await post(JSON.stringify(handBuilt([toolSpan("bbbbbbbbbbbb0001", []), toolSpan("bbbbbbbbbbbb0002", [s("gen_ai.tool.name", "ok_tool")]), { spanId: "zz" }])));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
    expect(body.partialSuccess.rejectedSpans).toBe("2");
    expect(body.partialSuccess.errorMessage).toContain("span bbbbbbbbbbbb0001: no_tool_name: tool span without a tool name; add gen_ai.tool.name");
    expect(body.partialSuccess.errorMessage).toContain("span zz: malformed: traceId");
    expect(await rowOf("bbbbbbbbbbbb0001")).toBeUndefined();
    expect(await rowOf("bbbbbbbbbbbb0002")).toMatchObject({ tool: "ok_tool", outcome: "ok" });
  });

  it("keeps __proto__ attribute keys as data", async () => {
    const raw = `{"resourceSpans":[{"resource":{"attributes":[{"key":"__proto__","value":{"stringValue":"x"}},{"key":"service.name","value":{"stringValue":"proto-agent"}}]},"scopeSpans":[{"spans":[{"traceId":"${TRACE}","spanId":"cccccccccccc0001","name":"t","startTimeUnixNano":"${T}000000","endTimeUnixNano":"${T}000000","__proto__":{"polluted":true},"attributes":[{"key":"__proto__","value":{"kvlistValue":{"values":[{"key":"polluted","value":{"boolValue":true}}]}}},{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},{"key":"gen_ai.tool.name","value":{"stringValue":"proto_tool"}}]}]}]}]}`;
    const res = await post(raw);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(await rowOf("cccccccccccc0001")).toMatchObject({ tool: "proto_tool", service: "proto-agent" });
  });

  it("accepts a gzip body", async () => {
    const res = await post(gzipSync(JSON.stringify(handBuilt([toolSpan("dddddddddddd0001", [s("gen_ai.tool.name", "zipped")])]))), { "content-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(await rowOf("dddddddddddd0001")).toMatchObject({ tool: "zipped" });
  });

  it("answers uncompressed and uncached, also to a client that accepts gzip", async () => {
    const res = await post(JSON.stringify(handBuilt([toolSpan("dddddddddddd0002", [s("gen_ai.tool.name", "plain")])])), { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(await res.json()).toEqual({});
  });

  it("answers partialSuccess in protobuf for a protobuf request", async () => {
    const type = otlpType("ExportTraceServiceRequest");
    const span = (id: string, attrs: { key: string; value: { stringValue: string } }[]) => ({
      traceId: Buffer.from(TRACE, "hex"), spanId: Buffer.from(id, "hex"), name: "execute_tool",
      startTimeUnixNano: `${T}000000`, endTimeUnixNano: `${T + 1}000000`, attributes: [s("gen_ai.operation.name", "execute_tool"), ...attrs],
    });
    const body = type.encode(type.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [span("eeeeeeeeeeee0001", []), span("eeeeeeeeeeee0002", [s("gen_ai.tool.name", "pb")])] }] }] })).finish();
    const res = await post(body, { "content-type": "application/x-protobuf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    const answer = decodeTraceResponse(new Uint8Array(await res.arrayBuffer()));
    expect(answer.partialSuccess?.rejectedSpans).toBe("1");
    expect(answer.partialSuccess?.errorMessage).toContain("span eeeeeeeeeeee0001: no_tool_name: tool span without a tool name");
    expect(await rowOf("eeeeeeeeeeee0002")).toMatchObject({ tool: "pb", release: null, service: null });
  });

  it("answers 400 with a google.rpc.Status for a garbage protobuf body and for broken JSON", async () => {
    const res = await post(Buffer.from("this is not protobuf at all"), { "content-type": "application/x-protobuf" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeStatus(new Uint8Array(await res.arrayBuffer()))).toMatchObject({ code: 3, message: expect.stringContaining("not a protobuf ExportTraceServiceRequest") });
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 3, message: expect.stringContaining("not valid JSON"), details: [] });
    const shape = await post(JSON.stringify({ resourceSpans: 7 }));
    expect(shape.status).toBe(400);
  });

  it("answers 415 for a wrong content type and 401 without a key", async () => {
    const res = await post("x", { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ code: 3, message: expect.stringContaining("content-type must be"), details: [] });
    const anon = await fetch(`${server.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ code: 16 });
    const bearer = await fetch(`${server.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` }, body: "{}" });
    expect([bearer.status, await bearer.json()]).toEqual([200, {}]);
  });
});
