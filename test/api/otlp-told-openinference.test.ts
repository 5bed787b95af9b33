// What the model was told, from OTLP only: the real `openai` client instrumented by the real
// OpenInference OpenAI instrumentation, against a local fake model server; tools traced with
// OpenInference's own `traceTool` inside an agent traced with `traceAgent`. A tool asks a provider
// (the same fake server, through the real `openai` client) that answers 429 or 503, or fails in a way
// the built-in pack cannot name; the tool's error goes back to the model as a tool message, which the
// instrumentation records on the next LLM span. Everything is read back from the real server.
import { traceAgent, traceTool } from "@arizeai/openinference-core";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { context, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import * as openaiModule from "openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { openProject, type ProjectServer } from "../helpers/project";
import { json, localServer, reads } from "./otlp-told-fixture";

let server: ProjectServer;
let readKey: string;
let fake: Awaited<ReturnType<typeof localServer>>;
const instrumentation = new OpenAIInstrumentation();

/** Per run (the user message): the model's replies in order, each a tool call or a text. */
const conversations = new Map<string, ({ call: string; args: Record<string, unknown> } | { text: string })[]>();
/** Per document: the statuses the provider answers the summariser with, consumed in order; 200 after. */
const provider = new Map<string, number[]>();

type ChatBody = { messages: { role: string; content: string | null }[] };

beforeAll(async () => {
  server = await openProject();
  readKey = (await createKey(server.store, server.project, "gate key", "read")).key;
  fake = await localServer((req, raw, res) => {
    const body = JSON.parse(raw) as ChatBody;
    if (req.url === "/provider/v1/chat/completions") {
      const doc = body.messages[0]!.content!;
      const status = provider.get(doc)?.shift();
      if (status === 429) return json(res, 429, { error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after": "2" });
      if (status === 503) return json(res, 503, { error: { message: "The server is overloaded", type: "server_error" } });
      return json(res, 200, completion({ role: "assistant", content: `summary of ${doc}` }));
    }
    const replies = conversations.get(body.messages[0]!.content!)!;
    const turn = replies[body.messages.filter((m) => m.role === "assistant").length]!;
    const n = body.messages.length;
    json(res, 200, completion("text" in turn ? { role: "assistant", content: turn.text } : {
      role: "assistant", content: null,
      tool_calls: [{ id: `call_${n}`, type: "function", function: { name: turn.call, arguments: JSON.stringify(turn.args) } }],
    }));
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // An ES module is not patched on require: the instrumentation's documented manual path, which reads
  // `module.OpenAI` (its parameter is typed as the default export).
  instrumentation.manuallyInstrument(openaiModule as unknown as typeof OpenAI);
});
afterAll(async () => {
  instrumentation.disable();
  context.disable();
  await fake?.close();
  await server?.stop();
});

const completion = (message: Record<string, unknown>) => ({
  id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-test",
  choices: [{ index: 0, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop", logprobs: null }],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
});

class QuoteStaleError extends Error {
  override name = "QuoteStaleError";
}

/** The agent's tools: the summariser asks a model provider through the real client; the quote tool can be stale. */
const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>> = {
  summarise: async ({ doc }) => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${fake.url}/provider/v1`, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: "gpt-small", messages: [{ role: "user", content: String(doc) }] });
    return r.choices[0]!.message.content;
  },
  get_quote: async ({ symbol }) => {
    throw new QuoteStaleError(`quote for ${String(symbol)} is stale`);
  },
  get_price: async ({ symbol }) => ({ symbol, price: 12.5 }),
};
const TOOL_DEFS = Object.keys(tools).map((name) => ({ type: "function" as const, function: { name, parameters: { type: "object" } } }));

/** One agent run: the model loop through the instrumented client, each tool call traced as a TOOL span. */
async function runAgent(tracer: Tracer, runKey: string): Promise<void> {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 });
  const agent = traceAgent(async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: runKey }];
    for (;;) {
      const reply = (await client.chat.completions.create({ model: "gpt-test", messages, tools: TOOL_DEFS })).choices[0]!.message;
      messages.push(reply);
      if (!reply.tool_calls?.length) return reply.content;
      for (const call of reply.tool_calls) {
        if (call.type !== "function") continue;
        const name = call.function.name;
        const traced = traceTool(tools[name]!, { name, tracer, attributes: { "tool.name": name, "tool_call.id": call.id } });
        let content: string;
        try {
          content = JSON.stringify(await traced(JSON.parse(call.function.arguments) as Record<string, unknown>));
        } catch (error) {
          content = `Error: ${(error as Error).message}`;
        }
        messages.push({ role: "tool", tool_call_id: call.id, content });
      }
    }
  }, { name: "quotes-agent", tracer });
  await agent();
}

/** Runs each conversation under `release`, its spans exported by the default batch processor (protobuf). */
async function release(version: string, runs: [string, (typeof conversations extends Map<string, infer V> ? V : never)][]): Promise<void> {
  const p = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "quotes-agent", "service.version": version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${server.url}/v1/traces`, headers: { "x-faultline-key": server.key } }))],
  });
  instrumentation.setTracerProvider(p);
  for (const [key, turns] of runs) {
    conversations.set(key, turns);
    await runAgent(p.getTracer("quotes-agent"), key);
    await p.forceFlush();
  }
  await p.shutdown();
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("OpenInference OpenAI instrumentation over OTLP: told texts, self-correction, codes, drift and the gate", () => {
  beforeAll(async () => {
    for (const i of range(10)) provider.set(`doc-a${i}`, [429]);
    for (const i of range(2)) provider.set(`doc-u${i}`, [503, 503]);
    await release("2.0.0", [
      // Ten rate limits the model answers with a shorter request that works.
      ...range(10).map((i) => [`run-a${i}`, [{ call: "summarise", args: { doc: `doc-a${i}` } }, { call: "summarise", args: { doc: `doc-a${i}`, short: true } }, { text: "done" }]] as const),
      // Two overloaded providers the model asks again, word for word, then gives up.
      ...range(2).map((i) => [`run-u${i}`, [{ call: "summarise", args: { doc: `doc-u${i}` } }, { call: "summarise", args: { doc: `doc-u${i}` } }, { text: "sorry" }]] as const),
    ].map(([k, t]) => [k, [...t]]));
    for (const i of range(10)) provider.set(`doc-b${i}`, [429, 429]);
    await release("2.1.0", [
      // Ten rate limits the model repeats unchanged, then gives up: self-correction fell.
      ...range(10).map((i) => [`run-b${i}`, [{ call: "summarise", args: { doc: `doc-b${i}` } }, { call: "summarise", args: { doc: `doc-b${i}` } }, { text: "sorry" }]] as const),
      // Two stale quotes the model answers with another tool.
      ...range(2).map((i) => [`run-q${i}`, [{ call: "get_quote", args: { symbol: `Q${i}` } }, { call: "get_price", args: { symbol: `Q${i}` } }, { text: "12.5" }]] as const),
    ].map(([k, t]) => [k, [...t]]));
  });

  it("stores the tool message the model read as the told text, with the next step of each error", async () => {
    const stored = await reads(server).toldErrors();
    const summary = (rows: typeof stored) => rows.map((r) => [r.tool, r.code, r.decision, r.told, r.step]);
    expect(stored.length).toBe(10 + 4 + 20 + 2);
    expect(summary(stored.slice(0, 1))).toEqual([["summarise", "rate_limited", "surfaced", "Error: 429 Rate limit reached for requests", "recovered"]]);
    expect(summary(stored.slice(10, 12))).toEqual([
      ["summarise", "upstream_unavailable", "surfaced", "Error: 503 The server is overloaded", "repeated"],
      ["summarise", "upstream_unavailable", "surfaced", "Error: 503 The server is overloaded", "gave_up"],
    ]);
    expect(summary(stored.slice(34))).toEqual([
      ["get_quote", null, "surfaced", "Error: quote for Q0 is stale", "replaced"],
      ["get_quote", null, "surfaced", "Error: quote for Q1 is stale", "replaced"],
    ]);
  });

  it("codes the provider failures with the built-in pack and gives the self-correction rates per release", async () => {
    const r = reads(server, readKey);
    expect(await r.codes()).toEqual([
      { code: "rate_limited", attempts: 30, errorClasses: ["ToolFailure"], told: { surfaced: 30, decided: 30, recovered: 10 } },
      { code: "upstream_unavailable", attempts: 4, errorClasses: ["ToolFailure"], told: { surfaced: 4, decided: 4, recovered: 0 } },
    ]);
    expect(await r.told("code=rate_limited&tool=summarise")).toEqual({
      steps: { recovered: 10, repeated: 10, gave_up: 10 },
      surfaced: 30, decided: 30, recovered: 10,
      selfCorrection: 10 / 30, repeatRate: 10 / 30,
      releases: [{ release: "2.0.0", decided: 10, selfCorrection: 1 }, { release: "2.1.0", decided: 20, selfCorrection: 0 }],
      wordings: [{ shape: "Error: <n> Rate limit reached for requests", surfaced: 30, selfCorrection: 10 / 30 }],
    });
  });

  it("reports the drop as model-behaviour drift between the releases, and the gate fails the minor release", async () => {
    const r = reads(server, readKey);
    expect(await r.drift()).toEqual([{ kind: "model_behaviour", tool: "summarise", code: "rate_limited", from: "2.0.0", to: "2.1.0" }]);
    expect(await r.gate("2.1.0")).toEqual({ verdict: "fail", violations: [["model_behaviour", "rate_limited"]], otherFindings: [], newCodes: [], removedCodes: [{ tool: "summarise", code: "upstream_unavailable", calls: 4 }] });
  });

  it("names the stale quotes with one rule created through the API", async () => {
    const r = reads(server, readKey);
    // Each failed attempt and the told error derived from it: the error follows its re-classified attempt.
    expect(await r.createRule({ name: "Stale quote", match: { errorType: "QuoteStaleError" }, set: { code: "quote_stale", errorClass: "ToolFailure", retryable: true } })).toEqual({ changed: 4, examined: 72 });
    expect(await r.codes()).toEqual([
      { code: "quote_stale", attempts: 2, errorClasses: ["ToolFailure"], told: { surfaced: 2, decided: 2, recovered: 2 } },
      { code: "rate_limited", attempts: 30, errorClasses: ["ToolFailure"], told: { surfaced: 30, decided: 30, recovered: 10 } },
      { code: "upstream_unavailable", attempts: 4, errorClasses: ["ToolFailure"], told: { surfaced: 4, decided: 4, recovered: 0 } },
    ]);
    // The told steps moved with their errors: the self-correction of the code the rule named.
    expect(await r.told("code=quote_stale&tool=get_quote")).toEqual({
      steps: { replaced: 2 },
      surfaced: 2, decided: 2, recovered: 2,
      selfCorrection: 1, repeatRate: 0,
      releases: [{ release: "2.1.0", decided: 2, selfCorrection: 1 }],
      wordings: [{ shape: "Error: quote for <id> is stale", surfaced: 2, selfCorrection: 1 }],
    });
  });
});
