import { describe, expect, it } from "vitest";
import { argsHash } from "@/lib/contracts/args-hash";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { extractToolSpans } from "@/lib/ingest/otlp/tool-spans";
import { b, i, ns, request, s, span, T0 } from "./fixtures";

const NOW = T0 + 3_600_000;
const extract = (spans: unknown[], resource?: Parameters<typeof request>[1]) =>
  extractToolSpans(decodeJsonRequest(request(spans, resource)), NOW);

describe("tool span recognition and mapping", () => {
  it("maps the GenAI execute_tool example field by field, run from the trace and release from the resource", () => {
    const r = extract([
      span({
        attributes: [
          s("gen_ai.operation.name", "execute_tool"),
          s("gen_ai.tool.name", "get_weather"),
          s("gen_ai.tool.call.id", "call_VSPygqKTWdrhaFErNvMV18Yl"),
          s("gen_ai.agent.name", "Travel Planner"),
          s("error.type", "rate_limited"),
        ],
        status: { code: 2, message: "upstream 429 after 3 attempts" },
      }),
    ]);
    expect(r.rejected).toEqual([]);
    expect(r.tools).toEqual([
      {
        spanId: "eee19b7ec3c1b174",
        traceId: "5b8efff798038103d269b633813fc60c",
        parentSpanId: "eee19b7ec3c1b173",
        runId: "5b8efff798038103d269b633813fc60c",
        callId: "call_VSPygqKTWdrhaFErNvMV18Yl",
        tool: "get_weather",
        toolVersion: null,
        release: "2026.11.3",
        service: "Travel Planner",
        environment: null,
        sdkName: "my.agent.runtime",
        sdkVersion: "1.4.0",
        attempt: 1,
        startedAt: T0,
        startedSubNs: 0,
        endedAt: T0 + 1250,
        outcome: "failed",
        code: "rate_limited",
        errorClass: null,
        retryable: null,
        retryAfterMs: null,
        backoffMs: null,
        decision: null,
        permitted: null,
        abandoned: null,
        message: "upstream 429 after 3 attempts",
        derived: "run_id,attempt",
        argsHash: null,
        afterError: null,
        convention: "gen_ai",
        emitterService: "support-agent",
        // A failure keeps what classification rules may match: the error type and the span's scalar attributes.
        facts: {
          errorType: "rate_limited",
          httpStatus: null,
          attributes: {
            "gen_ai.operation.name": "execute_tool", "gen_ai.agent.name": "Travel Planner", "gen_ai.tool.name": "get_weather",
            "gen_ai.tool.call.id": "call_VSPygqKTWdrhaFErNvMV18Yl", "error.type": "rate_limited",
          },
        },
      },
    ]);
  });

  it("hashes the arguments a convention carries and never keeps them; takes the runtime's own hash and link as sent", () => {
    const args = { city: "Oslo", units: "metric" };
    const hashOf = (attributes: unknown[]) => extract([span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "get_weather"), ...attributes] })]).tools[0]!;
    expect(hashOf([s("gen_ai.tool.call.arguments", '{"units": "metric",\n "city": "Oslo"}')]).argsHash).toBe(argsHash(args));
    expect(hashOf([s("ai.toolCall.args", JSON.stringify(args))]).argsHash).toBe(argsHash(args));
    expect(hashOf([s("input.value", JSON.stringify(args))]).argsHash).toBe(argsHash(args));
    expect(hashOf([]).argsHash).toBeNull();
    const t = hashOf([s("gen_ai.tool.call.arguments", JSON.stringify(args)), s("faultline.args_hash", "0123456789abcdef"), s("faultline.after_error", "toolu_01")]);
    expect([t.argsHash, t.afterError]).toEqual(["0123456789abcdef", "toolu_01"]);
    expect(JSON.stringify(hashOf([s("gen_ai.tool.call.arguments", '{"card":"4111 1111 1111 1111"}')]))).not.toContain("4111");
    const bad = extract([span({ attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "t"), s("faultline.args_hash", "not hex")] })]);
    expect(bad.rejected.map((r) => r.reason)).toEqual(["invalid_attribute: faultline.args_hash must be 8 to 64 lowercase hex characters"]);
  });

  it("reads a successful GenAI span (status unset, no error.type) as ok with no code", () => {
    const [t] = extract([span()]).tools;
    // No call id: the call is this tool under this parent, and the lone span its first attempt.
    expect(t).toMatchObject({ outcome: "ok", code: null, callId: "get_weather@eee19b7ec3c1b173", attempt: 1, derived: "run_id,call_id,attempt" });
  });

  it("does not take error.type _OTHER as a code, and keeps a class name as the error class", () => {
    const [a, c] = extract([
      span({ spanId: "0000000000000001", attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "x"), s("error.type", "_OTHER")] }),
      span({ spanId: "0000000000000002", attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "x"), s("error.type", "ToolTimedOutError")] }),
    ]).tools;
    expect([a!.outcome, a!.code, a!.errorClass]).toEqual(["failed", null, null]);
    expect([c!.outcome, c!.code, c!.errorClass]).toEqual(["failed", null, "ToolTimedOutError"]);
  });

  it("gives faultline.* attributes priority over every convention", () => {
    const [t] = extract([
      span({
        attributes: [
          s("gen_ai.operation.name", "execute_tool"),
          s("gen_ai.tool.name", "generic_name"),
          s("gen_ai.tool.call.id", "call_generic"),
          s("error.type", "generic_code"),
          s("faultline.run_id", "run-1"),
          s("faultline.call_id", "toolu_01"),
          s("faultline.tool", "cancel_booking"),
          i("faultline.attempt", "2"),
          s("faultline.outcome", "declined"),
          s("faultline.code", "booking_not_cancellable"),
          s("faultline.error_class", "ToolRefusal"),
          b("faultline.retryable", false),
          i("faultline.retry_after_ms", 2000),
          i("faultline.backoff_ms", "1500"),
          s("faultline.decision", "delivered"),
          s("faultline.release", "2026.12.0"),
          s("faultline.tool_version", "1.2.0"),
          b("faultline.abandoned", true),
        ],
      }),
    ]).tools;
    expect(t).toMatchObject({
      runId: "run-1", callId: "toolu_01", tool: "cancel_booking", attempt: 2, outcome: "declined", code: "booking_not_cancellable",
      errorClass: "ToolRefusal", retryable: false, retryAfterMs: 2000, backoffMs: 1500, decision: "delivered", release: "2026.12.0",
      toolVersion: "1.2.0", abandoned: true, convention: "faultline",
    });
  });

  it("rejects a span whose faultline.* value is wrong, naming the attribute", () => {
    const r = extract([span({ attributes: [s("faultline.tool", "x"), s("faultline.outcome", "exploded")] })]);
    expect(r.tools).toEqual([]);
    expect(r.rejected).toEqual([
      {
        spanId: "eee19b7ec3c1b174",
        reason: expect.stringContaining("invalid_attribute: faultline.outcome must be one of ok, failed"),
        drop: { emitter: { service: "support-agent", convention: "faultline" }, reason: "invalid_attribute", attribute: "faultline.outcome", at: NOW },
      },
    ]);
    const r2 = extract([span({ attributes: [s("faultline.tool", "x"), i("faultline.attempt", 0)] })]);
    expect(r2.rejected[0]!.reason).toContain("faultline.attempt must be an integer from 1");
  });

  it("rejects a tool span with no tool name and ignores non-tool spans", () => {
    const r = extract([
      span({ attributes: [s("gen_ai.operation.name", "execute_tool")] }),
      span({ spanId: "0000000000000009", name: "GET /", attributes: [s("http.method", "GET")] }),
      span({ spanId: "000000000000000a", name: "chat", attributes: [s("gen_ai.operation.name", "chat")] }),
    ]);
    expect(r.tools).toEqual([]);
    expect(r.ignored).toBe(2);
    expect(r.rejected).toEqual([
      {
        spanId: "eee19b7ec3c1b174",
        reason: "no_tool_name: tool span without a tool name; add gen_ai.tool.name",
        drop: { emitter: { service: "support-agent", convention: "gen_ai" }, reason: "no_tool_name", attribute: "gen_ai.tool.name", at: NOW },
      },
    ]);
  });

  it("takes run, agent and release from the parent agent span before the resource", () => {
    const agent = span({
      spanId: "aaaaaaaaaaaaaaaa",
      parentSpanId: "",
      name: "invoke_agent planner",
      attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner"), s("faultline.run_id", "run-42"), s("faultline.agent_version", "3.1.0")],
    });
    const middle = span({ spanId: "bbbbbbbbbbbbbbbb", parentSpanId: "aaaaaaaaaaaaaaaa", name: "chat", attributes: [s("gen_ai.operation.name", "chat")] });
    const tool = span({ spanId: "cccccccccccccccc", parentSpanId: "bbbbbbbbbbbbbbbb" });
    const r = extract([tool, middle, agent]);
    expect([r.ignored, r.runs.map((x) => x.runId)]).toEqual([1, ["run-42"]]);
    expect(r.tools[0]).toMatchObject({ runId: "run-42", service: "planner", release: "3.1.0" });
  });

  it("reads OpenInference tool spans", () => {
    const [t] = extract([span({ attributes: [s("openinference.span.kind", "TOOL"), s("tool.name", "search"), s("tool_call.id", "tc_1")], status: { code: 2 } })]).tools;
    expect(t).toMatchObject({ tool: "search", callId: "tc_1", outcome: "failed", convention: "openinference" });
  });

  it("reads the kit's auto-instrumentation spans: attempt as a string, class names and retryable", () => {
    const r = extract([
      span({ spanId: "0000000000000001", name: "adk.tool", attributes: [s("adk.run_id", "r1"), s("adk.operation", "book"), s("adk.attempt", "1"), s("adk.status", "error"), s("adk.error.type", "ToolFailure"), s("adk.error.retryable", "true")] }),
      span({ spanId: "0000000000000002", name: "adk.tool", attributes: [s("adk.run_id", "r1"), s("adk.operation", "book"), s("adk.attempt", "2"), s("adk.status", "ok")] }),
      span({ spanId: "0000000000000003", name: "adk.tool", attributes: [s("adk.run_id", "r1"), s("adk.operation", "cancel"), s("adk.status", "error"), s("adk.error.type", "ToolRefusal")] }),
      span({ spanId: "0000000000000004", name: "adk.tool", attributes: [s("adk.run_id", "r1"), s("adk.operation", "lookup"), s("adk.attempt", "x"), s("adk.status", "error"), s("adk.error.type", "KeyError")] }),
    ]);
    expect(r.tools.map((t) => [t.runId, t.tool, t.attempt, t.outcome, t.code, t.errorClass, t.retryable, t.message])).toEqual([
      ["r1", "book", 1, "failed", null, "ToolFailure", true, null],
      ["r1", "book", 2, "ok", null, null, null, null],
      ["r1", "cancel", 1, "declined", null, "ToolRefusal", null, null],
      ["r1", "lookup", 1, "failed", null, null, null, "KeyError"],
    ]);
  });

  it("reads the kit's OTLP recorder spans: the code only from the status text, refusals kept apart", () => {
    const r = extract([
      span({ spanId: "0000000000000001", name: "book", attributes: [s("adk.event", "tool_error"), s("adk.name", "book"), s("langfuse.observation.status_message", "upstream_unavailable: connection reset after 3 attempts")] }),
      span({ spanId: "0000000000000002", name: "cancel", attributes: [s("adk.event", "tool_refused"), s("adk.name", "cancel"), s("langfuse.observation.status_message", "booking_not_cancellable: This fare is non-refundable.")] }),
      span({ spanId: "0000000000000003", name: "wipe", attributes: [s("adk.event", "tool_refused"), s("adk.name", "wipe")] }),
      span({ spanId: "0000000000000004", name: "pay", attributes: [s("adk.event", "tool_indeterminate"), s("adk.name", "pay")] }),
    ]);
    expect(r.tools.map((t) => [t.tool, t.outcome, t.code, t.errorClass, t.retryable, t.message])).toEqual([
      ["book", "failed", "upstream_unavailable", null, null, "connection reset"],
      ["cancel", "declined", "booking_not_cancellable", "ToolRefusal", false, "This fare is non-refundable."],
      ["wipe", "refused", null, null, false, null],
      ["pay", null, null, null, null, null],
    ]);
  });

  it("reads the runtime's tool-error spans as final errors, not attempts", () => {
    const r = extract([
      span({
        name: "faultline.tool_error book",
        attributes: [
          s("faultline.run_id", "run-1"), s("faultline.call_id", "toolu_1"), s("faultline.tool", "book"), s("faultline.code", "upstream_unavailable"),
          s("faultline.error_class", "ToolFailure"), b("faultline.retryable", true), i("faultline.attempts", 3), s("faultline.decision", "exhausted"),
          s("faultline.told", "error: x"),
        ],
      }),
      span({ spanId: "0000000000000002", name: "faultline.tool_error book", attributes: [s("faultline.tool", "book"), s("faultline.told", "error: x")] }),
    ]);
    expect([r.tools.length, r.ignored]).toEqual([0, 0]);
    expect(r.toolErrors).toEqual([
      {
        eventId: "eee19b7ec3c1b174", runId: "run-1", callId: "toolu_1", tool: "book", toolVersion: null, release: "2026.11.3", service: "support-agent",
        environment: null, code: "upstream_unavailable", errorClass: "ToolFailure", retryable: true, attempts: 3, decision: "exhausted", told: "error: x",
        derived: null, occurredAt: T0, experiment: null, variant: null,
      },
    ]);
    expect(r.rejected).toEqual([
      {
        spanId: "0000000000000002",
        reason: "invalid_attribute: a tool error span needs faultline.run_id",
        drop: { emitter: { service: "support-agent", convention: "faultline" }, reason: "invalid_attribute", attribute: "faultline.run_id", at: NOW },
      },
    ]);
  });

  it("rejects times before 2000, far in the future, or ending before they start", () => {
    const r = extract([
      span({ spanId: "0000000000000001", startTimeUnixNano: "5", endTimeUnixNano: "6" }),
      span({ spanId: "0000000000000002", startTimeUnixNano: ns(NOW + 2 * 86_400_000), endTimeUnixNano: ns(NOW + 2 * 86_400_000) }),
      span({ spanId: "0000000000000003", startTimeUnixNano: ns(T0 + 10), endTimeUnixNano: ns(T0) }),
    ]);
    expect(r.rejected.map((x) => x.spanId)).toEqual(["0000000000000001", "0000000000000002", "0000000000000003"]);
  });
});
