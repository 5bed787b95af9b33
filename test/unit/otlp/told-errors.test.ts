import { describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/contracts";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { clipText, toldErrorsFromStored } from "@/lib/ingest/otlp/told-errors";
import { extractToolSpans } from "@/lib/ingest/otlp/tool-spans";
import { normalizeOtlp } from "@/lib/ingest/normalize-otlp";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { ns, request, s, span, T0 } from "./fixtures";

const NOW = T0 + 3_600_000;
const extract = (spans: unknown[]) => extractToolSpans(decodeJsonRequest(request(spans)), NOW);
const told = (spans: unknown[]) => extract(spans).told.map(({ eventId, callId, tool, decision, told: text, occurredAt, attempts }) => ({ eventId, callId, tool, decision, told: text, occurredAt, attempts }));
const failed = { code: 2, message: "HTTP 503 from orders" };

/** A model-call span starting at `at` with the given attributes. */
const chat = (spanId: string, at: number, attributes: unknown[]) =>
  span({ spanId, name: "chat", startTimeUnixNano: ns(at), endTimeUnixNano: ns(at + 300), attributes });

describe("what the model was told, from OTLP", () => {
  it("GenAI: gen_ai.tool.call.result on the failed execute_tool span is told when the call ended", () => {
    const tool = span({
      attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "get_weather"), s("gen_ai.tool.call.id", "call_1"), s("gen_ai.tool.call.result", "weather service unavailable, try later")],
      status: failed,
    });
    expect(told([tool])).toEqual([{ eventId: "eee19b7ec3c1b174", callId: "call_1", tool: "get_weather", decision: "surfaced", told: "weather service unavailable, try later", occurredAt: T0 + 1250, attempts: 1 }]);
  });

  it("GenAI: the tool_call_response of the same id in the next chat span's gen_ai.input.messages, told when that call started", () => {
    const tool = span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "get_weather"), s("gen_ai.tool.call.id", "call_1")], status: failed });
    const messages = [
      { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Oslo" } }] },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_0", response: "not this one" }, { type: "tool_call_response", id: "call_1", response: { error: "upstream 503" } }] },
    ];
    const next = chat("aaaaaaaaaaaaaaa1", T0 + 2000, [s("gen_ai.operation.name", "chat"), s("gen_ai.input.messages", JSON.stringify(messages))]);
    const later = chat("aaaaaaaaaaaaaaa2", T0 + 5000, [s("gen_ai.operation.name", "chat"), s("gen_ai.input.messages", JSON.stringify(messages))]);
    expect(told([later, tool, next])).toEqual([{ eventId: "eee19b7ec3c1b174", callId: "call_1", tool: "get_weather", decision: "surfaced", told: '{"error":"upstream 503"}', occurredAt: T0 + 2000, attempts: 1 }]);
  });

  it("OpenInference: output.value on a failed TOOL span; without it, the tool message of the next LLM span by tool_call_id", () => {
    const oi = (spanId: string, callId: string, extra: unknown[]) =>
      span({ spanId, attributes: [s("openinference.span.kind", "TOOL"), s("tool.name", "geocode"), s("tool_call.id", callId), ...extra], status: failed });
    const llm = chat("bbbbbbbbbbbbbbb1", T0 + 3000, [
      s("openinference.span.kind", "LLM"),
      s("llm.input_messages.0.message.role", "user"),
      s("llm.input_messages.0.message.content", "where is Oslo?"),
      s("llm.input_messages.1.message.role", "tool"),
      s("llm.input_messages.1.message.tool_call_id", "tc_2"),
      s("llm.input_messages.1.message.content", "Error: geocoder returned 429"),
    ]);
    expect(told([oi("ccccccccccccccc1", "tc_1", [s("output.value", "geocoder timed out")]), oi("ccccccccccccccc2", "tc_2", []), llm])).toEqual([
      { eventId: "ccccccccccccccc1", callId: "tc_1", tool: "geocode", decision: "surfaced", told: "geocoder timed out", occurredAt: T0 + 1250, attempts: 1 },
      { eventId: "ccccccccccccccc2", callId: "tc_2", tool: "geocode", decision: "surfaced", told: "Error: geocoder returned 429", occurredAt: T0 + 3000, attempts: 1 },
    ]);
  });

  it("OpenInference without a call id on the tool span: the tool message is matched by the tool the assistant called under that id", () => {
    const tool = span({ attributes: [s("openinference.span.kind", "TOOL"), s("tool.name", "geocode")], status: failed });
    const llm = chat("bbbbbbbbbbbbbbb1", T0 + 3000, [
      s("openinference.span.kind", "LLM"),
      s("llm.input_messages.0.message.role", "assistant"),
      s("llm.input_messages.0.message.tool_calls.0.tool_call.id", "call_x"),
      s("llm.input_messages.0.message.tool_calls.0.tool_call.function.name", "geocode"),
      s("llm.input_messages.1.message.role", "tool"),
      s("llm.input_messages.1.message.tool_call_id", "call_x"),
      s("llm.input_messages.1.message.content", "geocoder returned 429"),
    ]);
    expect(told([tool, llm])).toEqual([{ eventId: "eee19b7ec3c1b174", callId: "geocode@eee19b7ec3c1b173", tool: "geocode", decision: "surfaced", told: "geocoder returned 429", occurredAt: T0 + 3000, attempts: 1 }]);
  });

  it("Vercel AI SDK: the error-text tool result in the next doGenerate span's ai.prompt.messages; AI SDK 4's result with isError too", () => {
    const vercel = (spanId: string, callId: string) => span({ spanId, name: "ai.toolCall", attributes: [s("ai.toolCall.name", "lookup_order"), s("ai.toolCall.id", callId)], status: failed });
    const prompt = [
      { role: "user", content: [{ type: "text", text: "Where is A-1?" }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_a", toolName: "lookup_order", output: { type: "error-text", value: "orders service returned 503" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "call_b", toolName: "lookup_order", result: "HTTP 404", isError: true }] },
    ];
    const doGenerate = chat("ddddddddddddddd1", T0 + 2500, [s("ai.operationId", "ai.generateText.doGenerate"), s("ai.prompt.messages", JSON.stringify(prompt))]);
    expect(told([vercel("ddddddddddddddd2", "call_a"), vercel("ddddddddddddddd3", "call_b"), doGenerate])).toEqual([
      { eventId: "ddddddddddddddd2", callId: "call_a", tool: "lookup_order", decision: "surfaced", told: "orders service returned 503", occurredAt: T0 + 2500, attempts: 1 },
      { eventId: "ddddddddddddddd3", callId: "call_b", tool: "lookup_order", decision: "surfaced", told: "HTTP 404", occurredAt: T0 + 2500, attempts: 1 },
    ]);
  });

  it("a call whose final attempt succeeded, a result sent before the call ended, or none at all gives no told error", () => {
    const attempt = (spanId: string, start: number, ok: boolean) =>
      span({ spanId, startTimeUnixNano: ns(start), endTimeUnixNano: ns(start + 100), attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "t"), s("gen_ai.tool.call.id", "c1"), s("gen_ai.tool.call.result", "boom")], ...(ok ? {} : { status: failed }) });
    expect(told([attempt("eeeeeeeeeeeeeee1", T0, false), attempt("eeeeeeeeeeeeeee2", T0 + 500, true)])).toEqual([]);
    const early = chat("fffffffffffffff1", T0 + 1000, [s("gen_ai.input.messages", JSON.stringify([{ role: "tool", parts: [{ type: "tool_call_response", id: "c2", response: "x" }] }]))]);
    const bare = span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "t"), s("gen_ai.tool.call.id", "c2")], status: failed });
    expect(told([bare, early])).toEqual([]);
  });

  it("a call the runtime reports itself derives none: its spans state a decision, or its final-error record is in the request", () => {
    const result = s("gen_ai.tool.call.result", "quota exceeded");
    const decided = span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "t"), s("gen_ai.tool.call.id", "c1"), s("faultline.decision", "surfaced"), result], status: failed });
    expect(told([decided])).toEqual([]);
    const plain = span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "t"), s("gen_ai.tool.call.id", "c1"), s("faultline.run_id", "r1"), result], status: failed });
    const record = span({ spanId: "abababababababab", name: "faultline.tool_error t", attributes: [s("faultline.run_id", "r1"), s("faultline.call_id", "c1"), s("faultline.tool", "t"), s("faultline.told", "quota exceeded")] });
    expect(extract([plain, record]).toolErrors.map((e) => e.eventId)).toEqual(["abababababababab"]);
    expect(told([plain, record])).toEqual([]);
    expect(told([plain]).map((e) => e.eventId)).toEqual(["eee19b7ec3c1b174"]);
  });

  it("the told error shares its span's record index and is scrubbed; a long result is clipped to the told text limit", () => {
    const tool = span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "mail"), s("gen_ai.tool.call.id", "c"), s("gen_ai.tool.call.result", "no mailbox for ann@example.com")], status: failed });
    const rows = normalizeOtlp(extract([tool]), emptyRowBatch());
    expect(rows.toolErrors.map((e) => ({ index: e.index, told: e.row.told, fromSpanId: e.row.fromSpanId }))).toEqual([{ index: 0, told: "no mailbox for [redacted:email]", fromSpanId: "eee19b7ec3c1b174" }]);
    const long = "x".repeat(LIMITS.maxTextLength + 5);
    expect(clipText(long)).toBe(`${"x".repeat(LIMITS.maxTextLength - 1)}…`);
    expect(clipText(`${"x".repeat(LIMITS.maxTextLength - 2)}😀yz`)).toBe(`${"x".repeat(LIMITS.maxTextLength - 2)}…`);
  });
});

describe("tool results that arrive after the calls they answer", () => {
  const failedCall = { attributes: [s("ai.toolCall.name", "track"), s("ai.toolCall.id", "call_t")], name: "ai.toolCall", status: failed };
  const prompt = (id: string) => JSON.stringify([{ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "track", output: { type: "error-text", value: "504 gateway timeout" } }] }]);
  const doGenerate = (id: string) => chat("aaaaaaaaaaaaaaa9", T0 + 4000, [s("ai.operationId", "ai.generateText.doGenerate"), s("ai.prompt.messages", prompt(id))]);

  it("a result for a call the request does not hold is kept for matching at storage, scrubbed; one for a call here is not", () => {
    const later = extract([doGenerate("call_t")]);
    expect(later.told).toEqual([]);
    expect(later.toldPending.map(({ callId, tool, text, at }) => ({ callId, tool, text, at }))).toEqual([{ callId: "call_t", tool: "track", text: "504 gateway timeout", at: T0 + 4000 }]);
    const both = extract([span(failedCall), doGenerate("call_t")]);
    expect([both.told.length, both.toldPending]).toEqual([1, []]);
    // A successful Vercel result is not an error the model was told: not even read.
    const ok = chat("aaaaaaaaaaaaaaa8", T0 + 4000, [s("ai.prompt.messages", JSON.stringify([{ role: "tool", content: [{ type: "tool-result", toolCallId: "x", toolName: "track", output: { type: "json", value: {} } }] }]))]);
    expect(extract([ok]).toldPending).toEqual([]);
  });

  it("matches a pending result to the stored call's final failed attempt, unless the call succeeded or already has a final error", () => {
    const pending = extract([doGenerate("call_t")]).toldPending;
    const stored = extract([span(failedCall)]).tools;
    expect(toldErrorsFromStored(pending, { attempts: stored, reported: [] }).map(({ eventId, callId, told: text, occurredAt, decision }) => ({ eventId, callId, told: text, occurredAt, decision }))).toEqual([
      { eventId: "eee19b7ec3c1b174", callId: "call_t", told: "504 gateway timeout", occurredAt: T0 + 4000, decision: "surfaced" },
    ]);
    expect(toldErrorsFromStored(pending, { attempts: stored, reported: [{ runId: stored[0]!.runId, callId: "call_t" }] })).toEqual([]);
    const okLater = { ...stored[0]!, spanId: "eee19b7ec3c1b175", attempt: 2, outcome: "ok" };
    expect(toldErrorsFromStored(pending, { attempts: [...stored, okLater], reported: [] })).toEqual([]);
    expect(toldErrorsFromStored(extract([doGenerate("call_other")]).toldPending, { attempts: stored, reported: [] })).toEqual([]);
  });
});

describe("a call id the model calls again", () => {
  it("is not matched at storage: the call went on, and its last attempt decides (Vercel, GenAI, OpenInference, OpenLLMetry outputs)", () => {
    const prompt = JSON.stringify([{ role: "tool", content: [{ type: "tool-result", toolCallId: "c9", toolName: "t", output: { type: "error-text", value: "boom" } }] }]);
    const input = s("ai.prompt.messages", prompt);
    const outputs = [
      [s("ai.response.toolCalls", JSON.stringify([{ toolCallId: "c9", toolName: "t", input: "{}" }]))],
      [s("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "c9", name: "t" }] }]))],
      [s("llm.output_messages.0.message.role", "assistant"), s("llm.output_messages.0.message.tool_calls.0.tool_call.id", "c0"), s("llm.output_messages.0.message.tool_calls.1.tool_call.id", "c9")],
      [s("gen_ai.completion.0.role", "assistant"), s("gen_ai.completion.0.tool_calls.0.id", "c9")],
    ];
    for (const output of outputs) expect(extract([chat("aaaaaaaaaaaaaaa7", T0, [input, ...output])]).toldPending).toEqual([]);
    expect(extract([chat("aaaaaaaaaaaaaaa7", T0, [input, s("ai.response.toolCalls", JSON.stringify([{ toolCallId: "c10" }]))])]).toldPending.map((r) => [r.callId, r.reissued])).toEqual([["c9", false]]);
  });
});
