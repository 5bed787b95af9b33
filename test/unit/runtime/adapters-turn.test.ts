import { tool, generateText, jsonSchema, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  AiSdkToolCallError,
  MCP_INVALID_PARAMS,
  McpProtocolError,
  ToolFailure,
  ToolRefusal,
  fromAiSdkTools,
  openAIFunctionCallOutputs,
  openAIToolMessages,
  requestsFromOpenAIResponse,
  requestsFromOpenAIToolCalls,
  toMcpAnswer,
  toMcpCallToolResult,
  toMcpJsonRpcResponse,
  type OpenAIResponseItem,
  type ToolCallResult,
} from "../../../lib/runtime";
import { T0, expectValidRecords, harness } from "./helpers";

const lookup = { name: "lookup", execute: (args: unknown) => ({ found: (args as { id: string }).id }) };

describe("OpenAI Responses API", () => {
  // The shape of `response.output` as documented: function_call items beside message/reasoning items.
  const output: OpenAIResponseItem[] = [
    { type: "reasoning", id: "rs_1", summary: [] },
    { type: "function_call", id: "fc_1", call_id: "call_a", name: "lookup", arguments: '{"id":"42"}', status: "completed" },
    { type: "function_call", id: "fc_2", call_id: "call_b", name: "lookup", arguments: "{not json" },
    { type: "function_call", id: "fc_3", call_id: "call_c", name: "lookup", arguments: '{"id":"7"}' },
  ];

  it("runs every function_call and answers each call_id once, in order, with function_call_output items", async () => {
    const { runner, sink } = harness([lookup]);
    const requests = requestsFromOpenAIResponse(output);
    expect(requests.map((r) => [r.callId, r.tool, r.args, r.argumentsError])).toEqual([
      ["call_a", "lookup", { id: "42" }, undefined],
      ["call_b", "lookup", undefined, "the arguments are not valid JSON"],
      ["call_c", "lookup", { id: "7" }, undefined],
    ]);
    const results = await runner.startRun().callAll(requests.slice(0, 2)); // call_c gets no result
    const items = openAIFunctionCallOutputs(output, [...results, { ...results[0]!, callId: "call_zzz" }]);
    expect(items.map((i) => [i.type, i.call_id])).toEqual([
      ["function_call_output", "call_a"],
      ["function_call_output", "call_b"],
      ["function_call_output", "call_c"],
    ]);
    expect(items[0]!.output).toBe('<untrusted-data source="tool_result">\n{"found":"42"}\n</untrusted-data>');
    expect(items[1]!.output).toContain("invalid_arguments");
    expect(items[1]!.output).toContain("the arguments are not valid JSON");
    expect(items[2]!.output).toContain("never dispatched");
    expectValidRecords(sink.records);
  });
});

describe("OpenAI Chat Completions", () => {
  const toolCalls = [
    { id: "call_1", type: "function" as const, function: { name: "lookup", arguments: '{"id":"1"}' } },
    { id: "call_2", type: "function" as const, function: { name: "missing", arguments: "{}" } },
    { id: "call_1", type: "function" as const, function: { name: "lookup", arguments: '{"id":"1"}' } },
    { id: "call_3", type: "function" as const, function: { name: "lookup", arguments: "" } },
  ];

  it("answers every tool_call_id exactly once with a role:tool message", async () => {
    const { runner } = harness([lookup]);
    const results = await runner.startRun().callAll(requestsFromOpenAIToolCalls(toolCalls).slice(0, 2));
    const messages = openAIToolMessages(toolCalls, results);
    expect(messages.map((m) => [m.role, m.tool_call_id])).toEqual([["tool", "call_1"], ["tool", "call_2"], ["tool", "call_3"]]);
    expect(messages[1]!.content).toContain('<untrusted-data source="tool_error">');
    expect(messages[1]!.content).toContain("tool_not_found");
    expect(messages[2]!.content).toContain("never dispatched");
    expect(requestsFromOpenAIToolCalls(toolCalls)[3]!.args).toEqual({});
  });
});

describe("MCP", () => {
  it("an unknown tool is a JSON-RPC protocol error (-32602), not an isError result", async () => {
    const { runner } = harness([lookup]);
    const r = await runner.startRun().call({ callId: "1", tool: "nope" });
    expect(toMcpAnswer(r)).toEqual({ error: { code: MCP_INVALID_PARAMS, message: "Unknown tool: nope", data: { code: "tool_not_found", tool: "nope" } } });
    expect(toMcpJsonRpcResponse(7, r)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Unknown tool: nope", data: { code: "tool_not_found", tool: "nope" } } });
    expect(() => toMcpCallToolResult(r)).toThrow(McpProtocolError);
    try {
      toMcpCallToolResult(r);
    } catch (e) {
      expect([(e as McpProtocolError).code, (e as McpProtocolError).message]).toEqual([-32602, "Unknown tool: nope"]);
    }
  });

  it("tool failures, refusals and repairable argument errors stay results", async () => {
    const failing = { name: "book", execute: () => { throw new ToolFailure("book", "sold_out"); } };
    const refusing = { name: "cancel", execute: () => { throw new ToolRefusal("cancel", "not_cancellable", "final"); } };
    const strict = { name: "strict", validate: () => ({ id: "is required" }), execute: () => "x" };
    const { runner } = harness([failing, refusing, strict, lookup]);
    const [f, d, v, ok] = await runner.startRun().callAll([{ tool: "book" }, { tool: "cancel" }, { tool: "strict" }, { tool: "lookup", args: { id: "9" } }]);
    expect(toMcpJsonRpcResponse(1, f!)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { isError: true } });
    expect(toMcpCallToolResult(d!)).toMatchObject({ isError: false, content: [{ type: "text", text: expect.stringContaining("not_cancellable: final") }] });
    expect(toMcpCallToolResult(v!).isError).toBe(true);
    expect(toMcpCallToolResult(ok!)).toEqual({ content: [{ type: "text", text: '<untrusted-data source="tool_result">\n{"found":"9"}\n</untrusted-data>' }], isError: false });
  });
});

describe("Vercel AI SDK", () => {
  function model(calls: { id: string; name: string; input: string }[]) {
    let step = 0;
    const prompts: unknown[] = [];
    const m = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
        if (step++ === 0) {
          return {
            content: calls.map((c) => ({ type: "tool-call" as const, toolCallId: c.id, toolName: c.name, input: c.input })),
            finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
            usage,
            warnings: [],
          };
        }
        return { content: [{ type: "text" as const, text: "done" }], finishReason: { unified: "stop" as const, raw: "stop" }, usage, warnings: [] };
      },
    });
    return { m, prompts };
  }

  it("wraps existing tool() definitions: execute runs through the loop, failures become typed, recorded results", async () => {
    let weatherCalls = 0;
    const tools = {
      weather: tool({
        description: "weather for a city",
        inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
        execute: async ({ city }: { city: string }, { toolCallId }) => {
          if (++weatherCalls === 1) throw new ToolFailure("weather", "upstream_unavailable", { transient: true, retryAfterMs: 10 });
          return { city, tempC: 4, toolCallId };
        },
      }),
      refund: tool({
        description: "refund a booking",
        inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
        execute: async (): Promise<{ refunded: boolean }> => {
          throw new ToolRefusal("refund", "refund_window_closed", "the refund window closed");
        },
      }),
    };
    const wrapped = fromAiSdkTools(tools, { weather: { idempotent: true, timeoutMs: 5000 } });
    expect(wrapped.definitions.map((d) => [d.name, d.idempotent ?? false, d.timeoutMs ?? null])).toEqual([["weather", true, 5000], ["refund", false, null]]);
    const { runner, sink } = harness(wrapped.definitions);
    const run = runner.startRun();
    const { m, prompts } = model([
      { id: "tc_1", name: "weather", input: '{"city":"Oslo"}' },
      { id: "tc_2", name: "refund", input: '{"id":"b1"}' },
    ]);
    const result = await generateText({ model: m, tools: wrapped.bind(run), prompt: "go", stopWhen: stepCountIs(3) });
    run.end();
    expect(result.text).toBe("done");
    const parts = result.steps[0]!.content.filter((p) => p.type === "tool-result" || p.type === "tool-error");
    expect(parts.map((p) => [p.type, p.toolCallId])).toEqual([["tool-result", "tc_1"], ["tool-error", "tc_2"]]);
    expect(parts[0]!.type === "tool-result" && parts[0]!.output).toEqual({ city: "Oslo", tempC: 4, toolCallId: "tc_1" });
    const err = parts[1]!.type === "tool-error" ? parts[1]!.error : undefined;
    expect(err).toBeInstanceOf(AiSdkToolCallError);
    expect((err as AiSdkToolCallError).result).toMatchObject({ status: "declined", callId: "tc_2", decision: "delivered" });
    // What the model read on the second step: the enveloped refusal.
    expect(JSON.stringify(prompts[1])).toContain("refund_window_closed: the refund window closed");
    const spans = sink.ofType("tool_call_span").map((s) => `${s.call_id} ${s.tool} ${s.attempt} ${s.outcome}`);
    expect(spans.sort()).toEqual(["tc_1 weather 1 failed", "tc_1 weather 2 ok", "tc_2 refund 1 declined"]);
    expectValidRecords(sink.records);
  });
});

describe("Vercel AI SDK: the SDK call's abortSignal", () => {
  it("aborting generateText cancels the attempt in flight, records it cancelled, and leaves the run going", async () => {
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    let modelCalls = 0;
    const m = new MockLanguageModelV3({
      doGenerate: async () => {
        modelCalls++;
        return {
          content: [{ type: "tool-call" as const, toolCallId: "tc_slow", toolName: "search", input: '{"q":"fares"}' }],
          finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
          usage,
          warnings: [],
        };
      },
    });
    const controller = new AbortController();
    let sawAbort: unknown;
    const tools = {
      search: tool({
        description: "a slow search that stops only when told to",
        inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
        execute: (_input: { q: string }, { abortSignal }) =>
          new Promise<string>((_resolve, reject) => {
            abortSignal!.addEventListener("abort", () => ((sawAbort = abortSignal!.reason), reject(abortSignal!.reason)), { once: true });
            // The user gives up while the tool is running (a microtask, not a timer: nothing waits).
            queueMicrotask(() => controller.abort());
          }),
      }),
      lookup: tool({
        inputSchema: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
        execute: async ({ id }: { id: string }) => ({ found: id }),
      }),
    };
    const wrapped = fromAiSdkTools(tools, { search: { idempotent: true, timeoutMs: 60_000 } });
    const { runner, sink, time } = harness(wrapped.definitions);
    const run = runner.startRun();
    const bound = wrapped.bind(run);
    const generation = generateText({ model: m, tools: bound, prompt: "go", stopWhen: stepCountIs(3), abortSignal: controller.signal });
    // The SDK stops on its aborted signal instead of asking the model again.
    await expect(generation).rejects.toMatchObject({ name: "AbortError" });
    expect(modelCalls).toBe(1);
    // The original execute saw its signal fire (the wrapper hands it the attempt's signal, linked).
    expect(sawAbort).toBe("cancelled");
    expect(sink.ofType("tool_call_span").map((s) => [s.call_id, s.tool, s.attempt, s.outcome, s.decision, s.message, s.abandoned])).toEqual([
      ["tc_slow", "search", 1, "cancelled", "cancelled", "the call was cancelled by the caller", false],
    ]);
    expect(sink.ofType("tool_error")).toHaveLength(0);
    expect(time.now()).toBe(T0);
    // Only that call was cancelled: the run takes further calls and ends as its owner says.
    expect(run.state).toBe("running");
    const next = await bound.lookup.execute!({ id: "7" }, { toolCallId: "tc_next", messages: [] });
    expect(next).toEqual({ found: "7" });
    expect(run.end()).toMatchObject({ state: "completed" });
    expectValidRecords(sink.records);
  });
});

describe("turn helpers keep results of other turns out", () => {
  it("drops results whose ids the turn does not contain", () => {
    const r: ToolCallResult = { status: "ok", runId: "r", callId: "x", tool: "t", attempts: 1, value: 1 };
    expect(openAIToolMessages([], [r])).toEqual([]);
  });
});
