import { SemanticConventions as OI, OpenInferenceSpanKind } from "@arizeai/openinference-semantic-conventions";
import { context, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { SpanAttributes as TL, TraceloopSpanKindValues } from "@traceloop/ai-semantic-conventions";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import type { ConformanceEmitter } from "@/lib/contracts/conformance";
import type { ToolRow } from "@/lib/contracts/tools";
import type { RunListItem } from "@/lib/contracts/runs";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

// Each convention's real emitter (or its own semantic-convention package for the attribute names)
// records one call that failed twice and then succeeded, with no attempt numbers. Faultline must
// show one call, one success, two retries, and an honest null where the source has no code.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Math.floor((Date.now() - 600_000) / 1000) * 1000;
const headers = () => ({ "x-faultline-key": server.key });

/** A provider that exports every span in its own request, in the order spans end (the hardest case for numbering). */
function provider(service: string, exporter: SpanExporter = new JsonExporter({ url: `${server.url}/v1/traces`, headers: headers() })) {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": service, "service.version": "3.2.1" }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
}

interface Stored {
  tool: string; call_id: string; attempt: number; outcome: string; code: string | null; error_class: string | null; message: string | null; derived: string | null;
}
const storedOf = (service: string) =>
  server.store.all<Stored>(
    `SELECT tool, call_id, attempt, outcome, code, error_class, message, derived FROM ${SPANS} WHERE project_id = ? AND service = ? ORDER BY started_at`,
    [server.project, service],
  );

async function toolRow(name: string): Promise<Pick<ToolRow, "tool" | "attempts" | "calls" | "unnumbered" | "callsNotOk" | "failures" | "maxAttempts" | "topCodes">> {
  const answer = (await (await fetch(server.at(`/api/v1/tools?tool=${name}`))).json()) as { tools: ToolRow[] };
  const row = answer.tools.find((t) => t.tool === name)!;
  const { tool: t, attempts, calls, unnumbered, callsNotOk, failures, maxAttempts, topCodes } = row;
  return { tool: t, attempts, calls, unnumbered, callsNotOk, failures, maxAttempts, topCodes };
}

async function runOf(runId: string): Promise<Pick<RunListItem, "toolCalls" | "attempts" | "retries" | "failedAttempts" | "errors">> {
  const answer = (await (await fetch(server.at("/api/v1/runs?limit=100"))).json()) as { runs: RunListItem[] };
  const run = answer.runs.find((r) => r.runId === runId)!;
  return { toolCalls: run.toolCalls, attempts: run.attempts, retries: run.retries, failedAttempts: run.failedAttempts, errors: run.errors };
}

async function emitterOf(service: string): Promise<ConformanceEmitter | undefined> {
  const answer = (await (await fetch(server.at("/api/v1/conformance"))).json()) as { emitters: ConformanceEmitter[] };
  return answer.emitters.find((e) => e.service === service);
}

const ONE_CALL_TWO_RETRIES = { toolCalls: 1, attempts: 3, retries: 2, failedAttempts: 2, errors: 0 };

/** Three sibling spans under one parent, by a callback that sets each convention's attributes. */
async function threeAttempts(tracer: Tracer, root: string, mark: (span: ReturnType<Tracer["startSpan"]>, n: number) => void): Promise<string> {
  const parent = tracer.startSpan(root, { startTime: T });
  const ctx = trace.setSpan(context.active(), parent);
  for (let n = 1; n <= 3; n++) {
    const span = tracer.startSpan("tool", { startTime: T + n * 1000 }, ctx);
    mark(span, n);
    span.end(T + n * 1000 + 200);
  }
  parent.end(T + 5000);
  return parent.spanContext().traceId;
}

describe("OTLP conventions from their real emitters", () => {
  it("Vercel AI SDK: generateText with a tool that fails twice, through the SDK's own telemetry", async () => {
    // As the Node SDK does: without a context manager every span the AI SDK starts is a root of its own trace.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    onTestFinished(() => context.disable());
    const p = provider("ai-sdk-agent");
    let executions = 0;
    const step = (content: unknown[], unified: "tool-calls" | "stop") => ({
      content,
      finishReason: { unified, raw: unified },
      usage: { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } },
      warnings: [],
    });
    // The model asks for the same tool call until it succeeds (one call id), then answers.
    const toolCall = { type: "tool-call", toolCallId: "call_order_1", toolName: "lookup_order", input: JSON.stringify({ id: "A-1" }) };
    const model = new MockLanguageModelV3({
      doGenerate: async () => (executions < 3 ? step([toolCall], "tool-calls") : step([{ type: "text", text: "Order A-1 ships Monday." }], "stop")) as never,
    });
    const result = await generateText({
      model,
      prompt: "Where is order A-1?",
      stopWhen: stepCountIs(5),
      tools: {
        lookup_order: tool({
          inputSchema: z.object({ id: z.string() }),
          execute: async () => {
            executions++;
            if (executions < 3) throw new Error(`orders service unavailable (try ${executions})`);
            return { status: "shipping" };
          },
        }),
      },
      experimental_telemetry: { isEnabled: true, tracer: p.getTracer("ai") },
    });
    await p.forceFlush();
    await p.shutdown();
    expect(result.text).toBe("Order A-1 ships Monday.");
    // No code sent: the built-in classification pack names the failures by their text (docs/classification.md).
    expect(await storedOf("ai-sdk-agent")).toEqual([
      { tool: "lookup_order", call_id: "call_order_1", attempt: 1, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", message: "orders service unavailable (try 1)", derived: "run_id,attempt" },
      { tool: "lookup_order", call_id: "call_order_1", attempt: 2, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", message: "orders service unavailable (try 2)", derived: "run_id,attempt" },
      { tool: "lookup_order", call_id: "call_order_1", attempt: 3, outcome: "ok", code: null, error_class: null, message: null, derived: "run_id,attempt" },
    ]);
    expect(await toolRow("lookup_order")).toEqual({ tool: "lookup_order", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [{ code: "upstream_unavailable", failures: 2 }] });
    const traceId = (await server.store.get<{ t: string }>("SELECT trace_id AS t FROM tool_call_spans WHERE project_id = ? AND tool = 'lookup_order'", [server.project]))!.t;
    expect(await runOf(traceId)).toEqual(ONE_CALL_TWO_RETRIES);
  });

  it("OpenLLMetry/Traceloop: tool spans named by traceloop.entity.name, failures as exception events with status unset", async () => {
    const p = provider("traceloop-agent", new ProtoExporter({ url: `${server.url}/v1/traces`, headers: headers() }));
    const traceId = await threeAttempts(p.getTracer("traceloop.tracer"), "support.workflow", (span, n) => {
      span.updateName("fetch_invoice.tool");
      span.setAttributes({
        [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL,
        [TL.TRACELOOP_ENTITY_NAME]: "fetch_invoice",
        [TL.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ args: ["INV-7"] }),
      });
      if (n < 3) {
        const error = new Error("read timed out");
        error.name = "TimeoutError";
        span.recordException(error);
      } else span.setAttribute(TL.TRACELOOP_ENTITY_OUTPUT, JSON.stringify({ total: 12 }));
    });
    await p.shutdown();
    const callId = (await storedOf("traceloop-agent"))[0]!.call_id;
    // No call id in the convention: the call is the tool under its parent span.
    expect(callId).toMatch(/^fetch_invoice@[0-9a-f]{16}$/);
    expect(await storedOf("traceloop-agent")).toEqual([
      { tool: "fetch_invoice", call_id: callId, attempt: 1, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", message: "read timed out", derived: "run_id,call_id,attempt" },
      { tool: "fetch_invoice", call_id: callId, attempt: 2, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", message: "read timed out", derived: "run_id,call_id,attempt" },
      { tool: "fetch_invoice", call_id: callId, attempt: 3, outcome: "ok", code: null, error_class: null, message: null, derived: "run_id,call_id,attempt" },
    ]);
    expect(await toolRow("fetch_invoice")).toEqual({ tool: "fetch_invoice", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [{ code: "upstream_timeout", failures: 2 }] });
    expect(await runOf(traceId)).toEqual(ONE_CALL_TWO_RETRIES);
  });

  it("OpenInference: TOOL spans with tool_call.id, status Error plus exception events; a Java class name is the class, never a code", async () => {
    const p = provider("openinference-agent");
    const traceId = await threeAttempts(p.getTracer("openinference.instrumentation"), "agent", (span, n) => {
      span.setAttributes({ [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL, [OI.TOOL_NAME]: "geocode", [OI.TOOL_CALL_ID]: "tc_geo_1" });
      if (n < 3) {
        span.recordException({ name: "java.net.SocketTimeoutException", message: "connect timed out" });
        span.setStatus({ code: SpanStatusCode.ERROR, message: "connect timed out" });
      }
    });
    await p.shutdown();
    expect(await storedOf("openinference-agent")).toEqual([
      { tool: "geocode", call_id: "tc_geo_1", attempt: 1, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", message: "connect timed out", derived: "run_id,attempt" },
      { tool: "geocode", call_id: "tc_geo_1", attempt: 2, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", message: "connect timed out", derived: "run_id,attempt" },
      { tool: "geocode", call_id: "tc_geo_1", attempt: 3, outcome: "ok", code: null, error_class: null, message: null, derived: "run_id,attempt" },
    ]);
    expect(await toolRow("geocode")).toEqual({ tool: "geocode", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [{ code: "upstream_timeout", failures: 2 }] });
    expect(await runOf(traceId)).toEqual(ONE_CALL_TWO_RETRIES);
  });

  it("OpenTelemetry GenAI: a retried call without attempt numbers, exported span by span out of order, keeps its code", async () => {
    const exporter = new JsonExporter({ url: `${server.url}/v1/traces`, headers: headers() });
    // One span per export request; the batch processor exports them as they end: the ok attempt first.
    const p = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "genai-agent", "service.version": "3.2.1" }),
      spanProcessors: [new BatchSpanProcessor(exporter, { maxExportBatchSize: 1, scheduledDelayMillis: 1 })],
    });
    const tracer = p.getTracer("genai.runtime", "2.0.0");
    const parent = tracer.startSpan("invoke_agent helper", { startTime: T, attributes: { "gen_ai.operation.name": "invoke_agent" } });
    const ctx = trace.setSpan(context.active(), parent);
    const attempt = (start: number, failed: boolean) => {
      const span = tracer.startSpan("execute_tool send_email", { startTime: start, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "send_email", "gen_ai.tool.call.id": "call_mail" } }, ctx);
      if (failed) {
        span.setAttribute("error.type", "smtp_unavailable");
        span.setStatus({ code: SpanStatusCode.ERROR, message: "421 try later" });
      }
      return span;
    };
    const spans = [attempt(T + 100, true), attempt(T + 900, true), attempt(T + 1700, false)];
    // Ends in reverse order: the last attempt is exported (and stored) first.
    spans[2]!.end(T + 1800);
    await p.forceFlush();
    spans[1]!.end(T + 1000);
    await p.forceFlush();
    spans[0]!.end(T + 200);
    parent.end(T + 2000);
    await p.shutdown();
    expect((await storedOf("genai-agent")).map((r) => [r.attempt, r.outcome, r.code, r.error_class, r.message])).toEqual([
      [1, "failed", "smtp_unavailable", null, "421 try later"],
      [2, "failed", "smtp_unavailable", null, "421 try later"],
      [3, "ok", null, null, null],
    ]);
    expect(await toolRow("send_email")).toEqual({
      tool: "send_email", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [{ code: "smtp_unavailable", failures: 2 }],
    });
    expect(await runOf(parent.spanContext().traceId)).toEqual(ONE_CALL_TWO_RETRIES);
  });

  it("Faultline attributes without attempt numbers: codes and classes kept, attempts derived from the call id", async () => {
    const p = provider("faultline-attrs-agent");
    const traceId = await threeAttempts(p.getTracer("custom.loop"), "agent", (span, n) => {
      span.setAttributes({ "faultline.tool": "reserve_seat", "faultline.call_id": "call_seat_9" });
      if (n < 3) {
        span.setAttributes({ "faultline.outcome": "timed_out", "faultline.code": "seat_lock_timeout", "faultline.error_class": "ToolTimedOutError", "faultline.retryable": true });
        span.setStatus({ code: SpanStatusCode.ERROR, message: "seat lock held for 5 s" });
      } else span.setAttribute("faultline.outcome", "ok");
    });
    await p.shutdown();
    expect(await storedOf("faultline-attrs-agent")).toEqual([
      { tool: "reserve_seat", call_id: "call_seat_9", attempt: 1, outcome: "timed_out", code: "seat_lock_timeout", error_class: "ToolTimedOutError", message: "seat lock held for 5 s", derived: "run_id,attempt" },
      { tool: "reserve_seat", call_id: "call_seat_9", attempt: 2, outcome: "timed_out", code: "seat_lock_timeout", error_class: "ToolTimedOutError", message: "seat lock held for 5 s", derived: "run_id,attempt" },
      { tool: "reserve_seat", call_id: "call_seat_9", attempt: 3, outcome: "ok", code: null, error_class: null, message: null, derived: "run_id,attempt" },
    ]);
    expect(await toolRow("reserve_seat")).toEqual({
      tool: "reserve_seat", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [{ code: "seat_lock_timeout", failures: 2 }],
    });
    expect(await runOf(traceId)).toEqual(ONE_CALL_TWO_RETRIES);
  });

  it("OpenTelemetry GenAI: an exception class in error.type is the class, never a code", async () => {
    const p = provider("genai-class-agent");
    const traceId = await threeAttempts(p.getTracer("genai.runtime"), "invoke_agent", (span, n) => {
      span.setAttributes({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "read_file", "gen_ai.tool.call.id": "call_file" });
      if (n < 3) {
        span.setAttribute("error.type", "FileNotFoundError");
        span.setStatus({ code: SpanStatusCode.ERROR, message: "no such file: plan.md" });
      }
    });
    await p.shutdown();
    expect((await storedOf("genai-class-agent")).map((r) => [r.attempt, r.outcome, r.code, r.error_class, r.message])).toEqual([
      [1, "failed", null, "FileNotFoundError", "no such file: plan.md"],
      [2, "failed", null, "FileNotFoundError", "no such file: plan.md"],
      [3, "ok", null, null, null],
    ]);
    expect(await toolRow("read_file")).toEqual({ tool: "read_file", attempts: 3, calls: 1, unnumbered: 0, callsNotOk: 0, failures: 2, maxAttempts: 3, topCodes: [] });
    expect(await runOf(traceId)).toEqual(ONE_CALL_TWO_RETRIES);
    const codes = (await (await fetch(server.at("/api/v1/codes"))).json()) as { codes: { code: string }[] };
    expect(codes.codes.map((c) => c.code).filter((c) => /Error|Exception/.test(c))).toEqual([]);
  });

  it("counts tool-like spans it cannot store per emitter and reason, says so in partialSuccess, and names the attribute to add", async () => {
    const before = Date.now();
    const p = provider("broken-agent");
    const tracer = p.getTracer("traceloop.tracer");
    // A Traceloop tool span without its entity name, and a GenAI-looking span without its operation.
    const noName = tracer.startSpan("mystery.tool", { startTime: T, attributes: { [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL } });
    noName.end(T + 10);
    const unmarked = tracer.startSpan("execute_tool pay", { startTime: T, attributes: { "gen_ai.tool.name": "pay" } });
    unmarked.end(T + 10);
    await p.shutdown();
    // The exporter does not surface partialSuccess; the same span posted by hand shows the answer.
    const res = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { ...headers(), "content-type": "application/json" },
      body: JSON.stringify({
        resourceSpans: [{
          resource: { attributes: [{ key: "service.name", value: { stringValue: "broken-agent" } }] },
          scopeSpans: [{ spans: [{ traceId: "5b8efff798038103d269b633813fc60c", spanId: "eee19b7ec3c1b174", name: "mystery.tool", startTimeUnixNano: `${T}000000`, endTimeUnixNano: `${T + 10}000000`, attributes: [{ key: TL.TRACELOOP_SPAN_KIND, value: { stringValue: "tool" } }] }] }],
        }],
      }),
    });
    expect([res.status, await res.json()]).toEqual([
      200,
      { partialSuccess: { rejectedSpans: "1", errorMessage: "span eee19b7ec3c1b174: no_tool_name: tool span without a tool name; add traceloop.entity.name" } },
    ]);
    const byConvention = async (convention: string) => {
      const answerAll = (await (await fetch(server.at("/api/v1/conformance"))).json()) as { emitters: ConformanceEmitter[] };
      return answerAll.emitters.find((e) => e.service === "broken-agent" && e.convention === convention);
    };
    const traceloop = await byConvention("traceloop");
    const genAi = await byConvention("gen_ai");
    // Dropped spans are counted when they arrive (server time), not at their own start.
    const seen = [traceloop?.drops[0]?.lastSeen ?? 0, genAi?.drops[0]?.lastSeen ?? 0];
    expect(seen.map((t) => t >= before && t <= Date.now())).toEqual([true, true]);
    expect([traceloop?.spans, traceloop?.drops.map(({ lastSeen: _t, ...d }) => d)]).toEqual([
      0,
      [{ reason: "no_tool_name", attribute: "traceloop.entity.name", spans: 2, fix: "add traceloop.entity.name (the tool's name)" }],
    ]);
    expect([genAi?.spans, genAi?.drops.map(({ lastSeen: _t, ...d }) => d)]).toEqual([
      0,
      [{ reason: "unrecognised", attribute: "gen_ai.operation.name=execute_tool", spans: 1, fix: "mark the span as a tool call: add gen_ai.operation.name=execute_tool" }],
    ]);
  });

  it("shows per emitter field what was sent, derived (and how) or missing, and advises only what would change the stored result", async () => {
    const e = await emitterOf("traceloop-agent");
    const sent = (field: string, of: number) => ({ field, gap: { missing: 0, of, share: 0 }, derived: 0, derivation: null, fix: null });
    expect(e).toEqual({
      service: "traceloop-agent",
      convention: "traceloop",
      spans: 3,
      fields: [
        {
          field: "callId", gap: { missing: 0, of: 3, share: 0 }, derived: 3, fix: null,
          derivation: "<tool>@<parent span id>: the spans of one tool under one parent are one call's attempts (two calls of one tool under one parent would merge; gen_ai.tool.call.id keeps them apart)",
        },
        { field: "runId", gap: { missing: 0, of: 3, share: 0 }, derived: 3, fix: null, derivation: "the trace id: one run per trace (correct unless one run spans several traces)" },
        { field: "attempt", gap: { missing: 0, of: 3, share: 0 }, derived: 3, fix: null, derivation: "numbered 1, 2, 3… by start time (to the nanosecond) among the call's spans" },
        sent("outcome", 3),
        {
          field: "code", gap: { missing: 2, of: 2, share: 1 }, derived: 0, derivation: null,
          fix: { attribute: "faultline.code", where: "inside the function wrapped by withTool: trace.getActiveSpan()?.setAttribute(…)" },
        },
        sent("errorClass", 2),
        sent("message", 2),
        sent("release", 3),
      ],
      drops: [],
    });
  });
});
