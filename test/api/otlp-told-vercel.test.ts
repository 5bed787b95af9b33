// What the model was told, from OTLP only: the real Vercel AI SDK (`generateText` with its mock model)
// and the real OpenTelemetry SDK exporting to the real server. A tool calls a local upstream that
// answers 503, 429 or a refusal the built-in pack cannot name; the model's next step is scripted per
// run. Codes, a rule created through the API, the told texts, the self-correction rates, drift across
// two releases and the gate are all read back from the server with exact values.
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createKey } from "@/db/keys";
import { openProject, type ProjectServer } from "../helpers/project";
import { json, localServer, reads } from "./otlp-told-fixture";

let server: ProjectServer;
let readKey: string;
let upstream: Awaited<ReturnType<typeof localServer>>;
/** What the upstream answers per order id, consumed in order; 200 once the list is empty. */
const script = new Map<string, { status: number; body: string }[]>();

beforeAll(async () => {
  server = await openProject();
  readKey = (await createKey(server.store, server.project, "gate key", "read")).key;
  upstream = await localServer((req, _body, res) => {
    const id = decodeURIComponent(req.url!.split("/").pop()!);
    const next = script.get(id)?.shift();
    if (next) res.writeHead(next.status, { "content-type": "text/plain" }).end(next.body);
    else json(res, 200, { id, status: "shipping" });
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  context.disable();
  await upstream?.close();
  await server?.stop();
});

class OrderLockedError extends Error {
  override name = "OrderLockedError";
}

/** The agent's tools: the order lookup calls the upstream and throws what it answered. */
const tools = {
  lookup_order: tool({
    inputSchema: z.object({ id: z.string(), fresh: z.boolean().optional() }),
    execute: async ({ id }) => {
      const res = await fetch(`${upstream.url}/orders/${encodeURIComponent(id)}`);
      const text = await res.text();
      if (res.status === 423) throw new OrderLockedError(`order ${id} is locked by the warehouse`);
      if (!res.ok) throw new Error(`${res.status} ${text}`);
      return JSON.parse(text) as unknown;
    },
  }),
  search_orders: tool({ inputSchema: z.object({ customer: z.string() }), execute: async ({ customer }) => ({ customer, orders: ["A-0"] }) }),
};

type Turn = { call: string; input: Record<string, unknown> } | { text: string };

/** The span names of each export request. */
const requests: string[][] = [];

/**
 * One run (one generateText, one trace) of the given release, the model answering with `turns` in
 * order. The default batching: a run's spans leave in one request when the run is flushed, or, with
 * `flushEachStep`, in one request per step (a slow model: the batch delay passes between steps).
 */
async function run(release: string, turns: Turn[], flushEachStep = false): Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${server.url}/v1/traces`, headers: { "x-faultline-key": server.key } });
  const recording: SpanExporter = {
    export: (spans, done) => {
      requests.push(spans.map((x) => x.name));
      exporter.export(spans, done);
    },
    shutdown: () => exporter.shutdown(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "orders-agent", "service.version": release }),
    spanProcessors: [new BatchSpanProcessor(recording)],
  });
  let n = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const turn = turns[n]!;
      n++;
      const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
      const content = "text" in turn ? [{ type: "text", text: turn.text }] : [{ type: "tool-call", toolCallId: `call_${n}`, toolName: turn.call, input: JSON.stringify(turn.input) }];
      const unified = "text" in turn ? "stop" : "tool-calls";
      return { content, finishReason: { unified, raw: unified }, usage, warnings: [] } as never;
    },
  });
  await generateText({
    model, prompt: "Where is my order?", tools, stopWhen: stepCountIs(6),
    experimental_telemetry: { isEnabled: true, tracer: provider.getTracer("ai") },
    ...(flushEachStep ? { onStepFinish: () => provider.forceFlush() } : {}),
  });
  expect(n).toBe(turns.length);
  await provider.forceFlush();
  await provider.shutdown();
}

const fail = (id: string, ...answers: [number, string][]) => script.set(id, answers.map(([status, body]) => ({ status, body })));

describe("Vercel AI SDK over OTLP: told texts, self-correction, codes, drift and the gate", () => {
  beforeAll(async () => {
    // 1.0.0: twelve runs whose lookup meets a 503; the model fixes its call and the lookup works.
    for (let i = 0; i < 12; i++) {
      fail(`A-${i}`, [503, "orders backend down"]);
      await run("1.0.0", [{ call: "lookup_order", input: { id: `A-${i}` } }, { call: "lookup_order", input: { id: `A-${i}`, fresh: true } }, { text: "It ships Monday." }]);
    }
    // 1.1.0: twelve runs meeting a 503 whose model sends the same call again, then gives up.
    for (let i = 0; i < 12; i++) {
      fail(`B-${i}`, [503, "orders backend down"], [503, "orders backend down"]);
      await run("1.1.0", [{ call: "lookup_order", input: { id: `B-${i}` } }, { call: "lookup_order", input: { id: `B-${i}` } }, { text: "Sorry, try later." }]);
    }
    // 1.1.0: a rate limit the model recovers from, and two locked orders it answers with another tool.
    fail("C-0", [429, "slow down"]);
    await run("1.1.0", [{ call: "lookup_order", input: { id: "C-0" } }, { call: "lookup_order", input: { id: "C-0", fresh: true } }, { text: "Found it." }]);
    for (const id of ["D-1", "D-2"]) {
      fail(id, [423, "locked"]);
      await run("1.1.0", [{ call: "lookup_order", input: { id } }, { call: "search_orders", input: { customer: "ann" } }, { text: "Here are your orders." }]);
    }
  });

  it("stores the error text the model read as the told text of a surfaced final error, with its next step", async () => {
    const r = reads(server, readKey);
    const stored = await r.toldErrors();
    expect(stored.length).toBe(12 + 24 + 1 + 2);
    expect(stored.slice(0, 1)).toEqual([{ tool: "lookup_order", code: "upstream_unavailable", decision: "surfaced", told: "503 orders backend down", step: "recovered" }]);
    expect(stored.slice(12, 14)).toEqual([
      { tool: "lookup_order", code: "upstream_unavailable", decision: "surfaced", told: "503 orders backend down", step: "repeated" },
      { tool: "lookup_order", code: "upstream_unavailable", decision: "surfaced", told: "503 orders backend down", step: "gave_up" },
    ]);
    expect(stored.slice(36)).toEqual([
      { tool: "lookup_order", code: "rate_limited", decision: "surfaced", told: "429 slow down", step: "recovered" },
      { tool: "lookup_order", code: null, decision: "surfaced", told: "order D-1 is locked by the warehouse", step: "replaced" },
      { tool: "lookup_order", code: null, decision: "surfaced", told: "order D-2 is locked by the warehouse", step: "replaced" },
    ]);
  });

  it("codes the HTTP failures with the built-in pack; the self-correction rates per release come from OTLP alone", async () => {
    const r = reads(server, readKey);
    expect(await r.codes()).toEqual([
      { code: "rate_limited", attempts: 1, errorClasses: ["ToolFailure"], told: { surfaced: 1, decided: 1, recovered: 1 } },
      { code: "upstream_unavailable", attempts: 36, errorClasses: ["ToolFailure"], told: { surfaced: 36, decided: 36, recovered: 12 } },
    ]);
    expect(await r.told("code=upstream_unavailable&tool=lookup_order")).toEqual({
      steps: { recovered: 12, repeated: 12, gave_up: 12 },
      surfaced: 36, decided: 36, recovered: 12,
      selfCorrection: 12 / 36, repeatRate: 12 / 36,
      releases: [{ release: "1.0.0", decided: 12, selfCorrection: 1 }, { release: "1.1.0", decided: 24, selfCorrection: 0 }],
      wordings: [{ shape: "<n> orders backend down", surfaced: 36, selfCorrection: 12 / 36 }],
    });
  });

  it("finds the drop in self-correction between the two releases and the gate reports it", async () => {
    const r = reads(server, readKey);
    expect(await r.drift()).toEqual([{ kind: "model_behaviour", tool: "lookup_order", code: "upstream_unavailable", from: "1.0.0", to: "1.1.0" }]);
    // A worse self-correction in a minor release is a SemVer violation (docs/gate.md).
    expect(await r.gate("1.1.0")).toEqual({ verdict: "fail", violations: [["model_behaviour", "upstream_unavailable"]], otherFindings: [], newCodes: [{ tool: "lookup_order", code: "rate_limited", calls: 1 }], removedCodes: [] });
  });

  it("a rule created through the API names the remaining failures", async () => {
    const r = reads(server, readKey);
    // Each failed attempt and the told error derived from it: the error follows its re-classified attempt.
    expect(await r.createRule({ name: "Order locked", match: { errorType: "OrderLockedError" }, set: { code: "order_locked", errorClass: "ToolFailure", retryable: false } })).toEqual({ changed: 4, examined: 78 });
    expect(await r.codes()).toEqual([
      { code: "order_locked", attempts: 2, errorClasses: ["ToolFailure"], told: { surfaced: 2, decided: 2, recovered: 2 } },
      { code: "rate_limited", attempts: 1, errorClasses: ["ToolFailure"], told: { surfaced: 1, decided: 1, recovered: 1 } },
      { code: "upstream_unavailable", attempts: 36, errorClasses: ["ToolFailure"], told: { surfaced: 36, decided: 36, recovered: 12 } },
    ]);
    // The told steps moved with their errors: the self-correction of the code the rule named.
    expect(await r.told("code=order_locked&tool=lookup_order")).toEqual({
      steps: { replaced: 2 },
      surfaced: 2, decided: 2, recovered: 2,
      selfCorrection: 1, repeatRate: 0,
      releases: [{ release: "1.1.0", decided: 2, selfCorrection: 1 }],
      wordings: [{ shape: "order <id> is locked by the warehouse", surfaced: 2, selfCorrection: 1 }],
    });
    expect(await r.told("tool=lookup_order")).toMatchObject({ surfaced: 39 });
  });

  it("matches a tool error read by a model call exported in a later request than the failed call", async () => {
    fail("E-1", [504, "gateway timeout"]);
    requests.length = 0;
    await run("1.1.0", [{ call: "lookup_order", input: { id: "E-1" } }, { call: "lookup_order", input: { id: "E-1", fresh: true } }, { text: "Found it." }], true);
    // The failed call left with the first step; the model call that read its error, with the second.
    expect(requests.slice(0, 2)).toEqual([["ai.generateText.doGenerate", "ai.toolCall"], ["ai.generateText.doGenerate", "ai.toolCall"]]);
    const stored = await reads(server, readKey).toldErrors();
    expect(stored.filter((e) => e.told.startsWith("504"))).toEqual([{ tool: "lookup_order", code: "upstream_unavailable", decision: "surfaced", told: "504 gateway timeout", step: "recovered" }]);
  });
});
