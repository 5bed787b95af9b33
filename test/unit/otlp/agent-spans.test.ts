import { describe, expect, it } from "vitest";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { extractToolSpans } from "@/lib/ingest/otlp/tool-spans";
import { i, ns, request, s, span, T0 } from "./fixtures";

const NOW = T0 + 3_600_000;
const extract = (spans: unknown[], resource?: Parameters<typeof request>[1]) =>
  extractToolSpans(decodeJsonRequest(request(spans, resource)), NOW);

const TRACE = "5b8efff798038103d269b633813fc60c";
const agentSpan = (attributes: unknown[], over: Record<string, unknown> = {}) =>
  span({ spanId: "aaaaaaaaaaaaaaaa", parentSpanId: "", name: "invoke_agent planner", endTimeUnixNano: ns(T0 + 5000), attributes, ...over });
const toolSpan = (spanId: string, attributes: unknown[] = []) =>
  span({ spanId, parentSpanId: "aaaaaaaaaaaaaaaa", attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "get_weather"), ...attributes] });

describe("agent spans as run records", () => {
  it("maps a GenAI invoke_agent span field by field: run from the trace, release from the resource, completed", () => {
    const r = extract([agentSpan([s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner")])]);
    expect([r.tools, r.rejected, r.ignored]).toEqual([[], [], 0]);
    expect(r.runs).toEqual([
      {
        traceId: TRACE, spanId: "aaaaaaaaaaaaaaaa", recordId: `aaaaaaaaaaaaaaaa@completed:${T0 + 5000}`, runId: TRACE, agent: "planner",
        release: "2026.11.3", service: "support-agent", environment: null, sdkName: "my.agent.runtime", sdkVersion: "1.4.0",
        startedAt: T0, endedAt: T0 + 5000, state: "completed", deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null,
      },
    ]);
  });

  it("reads Faultline's runtime export: explicit run id, run state, agent version, deadline, attempt cap and unanswered tool uses", () => {
    const [run] = extract([
      agentSpan(
        [
          s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner"), s("faultline.run_id", "run-7"),
          s("faultline.run_state", "running"), s("faultline.agent_version", "3.1.0"), s("faultline.release", "2026.12.0"),
          i("faultline.deadline_at", String(T0 + 60_000)), i("faultline.max_tool_attempts", "3"), i("faultline.unanswered_tool_uses", "2"),
        ],
        { endTimeUnixNano: ns(T0) },
      ),
    ]).runs;
    expect(run).toEqual({
      traceId: TRACE, spanId: "aaaaaaaaaaaaaaaa", recordId: "aaaaaaaaaaaaaaaa@running", runId: "run-7", agent: "planner", release: "3.1.0",
      service: "support-agent", environment: null, sdkName: "my.agent.runtime", sdkVersion: "1.4.0", startedAt: T0, endedAt: null,
      state: "running", deadlineAt: T0 + 60_000, maxToolAttempts: 3, error: null, unansweredToolUses: 2,
    });
  });

  it("takes the state from the span status, an unset end as running, and falls back to service.name, else unknown", () => {
    const r = extract(
      [
        agentSpan([s("openinference.span.kind", "AGENT"), s("agent.name", "oi-agent")], { spanId: "0000000000000001", status: { code: 2, message: "budget gone" } }),
        agentSpan([s("gen_ai.operation.name", "create_agent")], { spanId: "0000000000000002", endTimeUnixNano: "0" }),
      ],
      [],
    );
    expect(r.runs.map((x) => [x.spanId, x.runId, x.agent, x.release, x.state, x.startedAt, x.endedAt, x.error])).toEqual([
      ["0000000000000001", TRACE, "oi-agent", null, "failed", T0, T0 + 5000, "budget gone"],
      ["0000000000000002", TRACE, null, null, "running", T0, null, null],
    ]);
    const [named] = extract([agentSpan([s("gen_ai.operation.name", "invoke_agent")])]).runs;
    expect(named!.agent).toBe("support-agent");
  });

  it("recognises the reference kit's run spans (adk.run, the recorder root) and keeps their run id and state", () => {
    const r = extract([
      agentSpan([s("adk.run_id", "run_1"), s("adk.operation", "planner")], { spanId: "0000000000000001", name: "adk.run" }),
      agentSpan([s("adk.run_id", "run_2"), s("adk.agent", "planner"), s("adk.agent_version", "0.4.0"), s("adk.state", "budget_exhausted")], { spanId: "0000000000000002", name: "planner" }),
    ]);
    expect(r.runs.map((x) => [x.runId, x.agent, x.release, x.state, x.endedAt])).toEqual([
      ["run_1", "support-agent", "2026.11.3", "completed", T0 + 5000],
      ["run_2", "planner", "0.4.0", "budget_exhausted", T0 + 5000],
    ]);
  });

  it("stores no run for model, HTTP and tool-error spans, and rejects a wrong faultline.run_state", () => {
    const r = extract([
      span({ spanId: "0000000000000001", name: "chat", attributes: [s("gen_ai.operation.name", "chat"), s("faultline.run_id", "run-1")] }),
      span({ spanId: "0000000000000002", name: "GET /", attributes: [s("http.method", "GET")] }),
      span({
        spanId: "0000000000000003",
        name: "faultline.tool_error book",
        attributes: [s("faultline.run_id", "run-1"), s("faultline.call_id", "c1"), s("faultline.tool", "book"), s("faultline.told", "x")],
      }),
      agentSpan([s("faultline.run_id", "run-1"), s("faultline.run_state", "exploded")], { spanId: "0000000000000004" }),
    ]);
    expect([r.runs, r.tools, r.toolErrors.map((e) => e.eventId), r.ignored]).toEqual([[], [], ["0000000000000003"], 2]);
    expect(r.rejected).toEqual([
      { spanId: "0000000000000004", reason: expect.stringContaining("faultline.run_state must be one of pending, running"), drop: null },
    ]);
  });
});

describe("which run a tool span belongs to", () => {
  const agentWithId = agentSpan([s("gen_ai.operation.name", "invoke_agent"), s("faultline.run_id", "run-42")]);
  const plainAgent = agentSpan([s("gen_ai.operation.name", "invoke_agent")]);

  it("its own run attribute wins over the agent span's", () => {
    const r = extract([toolSpan("0000000000000001", [s("faultline.run_id", "run-own")]), toolSpan("0000000000000002", [s("adk.run_id", "run-kit")]), agentWithId]);
    expect(r.tools.map((t) => t.runId)).toEqual(["run-own", "run-kit"]);
    expect(r.runs.map((x) => x.runId)).toEqual(["run-42"]);
  });

  it("without one, the agent span's run attribute when the agent span is in the same request", () => {
    const r = extract([toolSpan("0000000000000001"), agentWithId]);
    expect([r.tools[0]!.runId, r.runs[0]!.runId]).toEqual(["run-42", "run-42"]);
  });

  it("else the trace id — the key the agent span's run record takes in a later request", () => {
    const first = extract([toolSpan("0000000000000001"), toolSpan("0000000000000002")]);
    const second = extract([plainAgent]);
    expect([...first.tools.map((t) => t.runId), second.runs[0]!.runId]).toEqual([TRACE, TRACE, TRACE]);
    // Same in one request, and in either order.
    const together = extract([plainAgent, toolSpan("0000000000000001")]);
    expect([together.tools[0]!.runId, together.runs[0]!.runId]).toEqual([TRACE, TRACE]);
  });

  it("an agent run attribute that tool spans do not carry splits the run when the agent span comes later (documented)", () => {
    const first = extract([toolSpan("0000000000000001")]);
    const second = extract([agentWithId]);
    expect([first.tools[0]!.runId, second.runs[0]!.runId]).toEqual([TRACE, "run-42"]);
  });
});
