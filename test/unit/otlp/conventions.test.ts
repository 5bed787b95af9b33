import { SemanticConventions as OI, OpenInferenceSpanKind } from "@arizeai/openinference-semantic-conventions";
import { SpanAttributes as TL, TraceloopSpanKindValues } from "@traceloop/ai-semantic-conventions";
import { describe, expect, it } from "vitest";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { extractToolSpans } from "@/lib/ingest/otlp/tool-spans";
import { i, ns, request, s, span, T0 } from "./fixtures";

const NOW = T0 + 3_600_000;
const extract = (spans: unknown[]) => extractToolSpans(decodeJsonRequest(request(spans)), NOW);
const exception = (type: string | null, message: string) => ({
  name: "exception",
  timeUnixNano: ns(T0 + 5),
  attributes: [...(type ? [s("exception.type", type)] : []), s("exception.message", message)],
});
const at = (spanId: string, start: number, over: Record<string, unknown>) =>
  span({ spanId, startTimeUnixNano: ns(T0 + start), endTimeUnixNano: ns(T0 + start + 10), ...over });
const summary = (r: ReturnType<typeof extract>) =>
  r.tools.map((t) => [t.spanId, t.tool, t.callId, t.attempt, t.outcome, t.code, t.errorClass, t.message, t.derived, t.convention]);

describe("conventions beyond GenAI", () => {
  it("reads OpenLLMetry/Traceloop tool spans by their own attribute names, failures from exception events", () => {
    const tool = (id: string, start: number, events: unknown[]) =>
      at(id, start, {
        name: "lookup_order.tool",
        attributes: [s(TL.TRACELOOP_SPAN_KIND, TraceloopSpanKindValues.TOOL), s(TL.TRACELOOP_ENTITY_NAME, "lookup_order"), s(TL.TRACELOOP_ENTITY_INPUT, "{}")],
        events,
      });
    const r = extract([tool("0000000000000003", 300, []), tool("0000000000000001", 100, [exception("TimeoutError", "read timed out")]), tool("0000000000000002", 200, [exception("TimeoutError", "read timed out")])]);
    // No call id: the three siblings under one parent are one call, numbered by start time.
    expect(summary(r)).toEqual([
      ["0000000000000003", "lookup_order", "lookup_order@eee19b7ec3c1b173", 3, "ok", null, null, null, "run_id,call_id,attempt", "traceloop"],
      ["0000000000000001", "lookup_order", "lookup_order@eee19b7ec3c1b173", 1, "failed", null, "TimeoutError", "read timed out", "run_id,call_id,attempt", "traceloop"],
      ["0000000000000002", "lookup_order", "lookup_order@eee19b7ec3c1b173", 2, "failed", null, "TimeoutError", "read timed out", "run_id,call_id,attempt", "traceloop"],
    ]);
  });

  it("does not take traceloop.entity.name of a workflow or task span as a tool", () => {
    const r = extract([at("0000000000000001", 0, { name: "checkout.workflow", attributes: [s(TL.TRACELOOP_SPAN_KIND, "workflow"), s(TL.TRACELOOP_ENTITY_NAME, "checkout")] })]);
    expect([r.tools, r.rejected, r.ignored]).toEqual([[], [], 1]);
  });

  it("reads OpenInference tool spans with exception events: the class is the exception type, never the code", () => {
    const r = extract([
      at("0000000000000001", 0, {
        attributes: [s(OI.OPENINFERENCE_SPAN_KIND, OpenInferenceSpanKind.TOOL), s(OI.TOOL_NAME, "search"), s(OI.TOOL_CALL_ID, "tc_1")],
        events: [exception("java.net.SocketTimeoutException", "connect timed out")],
      }),
    ]);
    expect(summary(r)).toEqual([["0000000000000001", "search", "tc_1", 1, "failed", null, "java.net.SocketTimeoutException", "connect timed out", "run_id,attempt", "openinference"]]);
  });

  it("reads Vercel AI SDK ai.toolCall spans", () => {
    const r = extract([
      at("0000000000000001", 0, {
        name: "ai.toolCall",
        attributes: [s("ai.operationId", "ai.toolCall"), s("ai.toolCall.name", "weather"), s("ai.toolCall.id", "call-1")],
        events: [exception("Error", "upstream down")],
        status: { code: 2, message: "upstream down" },
      }),
    ]);
    expect(summary(r)).toEqual([["0000000000000001", "weather", "call-1", 1, "failed", null, "Error", "upstream down", "run_id,attempt", "vercel_ai"]]);
  });

  it("counts an exception event with status unset as a failure, and keeps its message next to status Error", () => {
    const genAi = [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "pay"), s("gen_ai.tool.call.id", "c")];
    const r = extract([
      at("0000000000000001", 0, { attributes: genAi, events: [exception("ConnectionError", "reset by peer")] }),
      at("0000000000000002", 100, { attributes: [...genAi, s("error.type", "ConnectionError")], status: { code: 2 }, events: [exception("ConnectionError", "reset again")] }),
      at("0000000000000003", 200, { attributes: [...genAi, s("error.type", "rate_limited")], status: { code: 2, message: "429" } }),
    ]);
    expect(summary(r)).toEqual([
      ["0000000000000001", "pay", "c", 1, "failed", null, "ConnectionError", "reset by peer", "run_id,attempt", "gen_ai"],
      ["0000000000000002", "pay", "c", 2, "failed", null, "ConnectionError", "reset again", "run_id,attempt", "gen_ai"],
      ["0000000000000003", "pay", "c", 3, "failed", "rate_limited", null, "429", "run_id,attempt", "gen_ai"],
    ]);
  });

  it("takes an exception event on a span whose status the instrumentation set to Ok as handled: ok, with no class or message", () => {
    const oi = [s(OI.OPENINFERENCE_SPAN_KIND, OpenInferenceSpanKind.TOOL), s(OI.TOOL_NAME, "fetch"), s(OI.TOOL_CALL_ID, "c")];
    const r = extract([
      at("0000000000000001", 0, { attributes: oi, status: { code: 1 }, events: [exception("ReadTimeout", "retrying inside the tool")] }),
      at("0000000000000002", 100, { attributes: oi, events: [exception("ReadTimeout", "gave up")] }),
    ]);
    expect(summary(r)).toEqual([
      ["0000000000000001", "fetch", "c", 1, "ok", null, null, null, "run_id,attempt", "openinference"],
      ["0000000000000002", "fetch", "c", 2, "failed", null, "ReadTimeout", "gave up", "run_id,attempt", "openinference"],
    ]);
  });

  it("leaves a call alone when the source numbers any of its attempts", () => {
    const attrs = (n?: number) => [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "x"), s("faultline.call_id", "c"), ...(n ? [i("faultline.attempt", n)] : [])];
    const r = extract([at("0000000000000001", 0, { attributes: attrs(2) }), at("0000000000000002", 50, { attributes: attrs() })]);
    expect(r.tools.map((t) => [t.attempt, t.derived])).toEqual([[2, "run_id"], [null, "run_id"]]);
  });

  it("counts a span that names a tool but is not marked as a tool call as a drop with the marker to add", () => {
    const r = extract([at("0000000000000001", 0, { name: "execute_tool pay", attributes: [s("gen_ai.tool.name", "pay")] })]);
    expect([r.tools, r.ignored]).toEqual([[], 0]);
    expect(r.rejected).toEqual([
      {
        spanId: "0000000000000001",
        reason: "unrecognised: looks like a tool call but is not marked as one; add gen_ai.operation.name=execute_tool",
        drop: { emitter: { service: "support-agent", convention: "gen_ai" }, reason: "unrecognised", attribute: "gen_ai.operation.name=execute_tool", at: NOW },
      },
    ]);
  });
});
