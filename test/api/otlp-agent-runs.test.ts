import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { SpanAttributes as TL, TraceloopSpanKindValues } from "@traceloop/ai-semantic-conventions";
import { generateText, simulateReadableStream, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import type { RunListItem } from "@/lib/contracts/runs";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

// Agent spans of the Vercel AI SDK (`ai.generateText` / `ai.streamText`) and of OpenLLMetry
// (`traceloop.span.kind = agent`) become runs with a state and an agent, as OpenInference AGENT spans do.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Math.floor((Date.now() - 600_000) / 1000) * 1000;

function provider(service: string) {
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${server.url}/v1/traces`, headers: { "x-faultline-key": server.key } }))],
  });
}

type RunSummary = Pick<RunListItem, "runId" | "agent" | "state" | "toolCalls" | "attempts" | "failedAttempts">;
async function runsOf(ids: readonly string[]): Promise<RunSummary[]> {
  const answer = (await (await fetch(server.at("/api/v1/runs?limit=100&sort=start&dir=asc"))).json()) as { runs: RunListItem[] };
  return answer.runs
    .filter((r) => ids.includes(r.runId))
    .map(({ runId, agent, state, toolCalls, attempts, failedAttempts }) => ({ runId, agent, state, toolCalls, attempts, failedAttempts }));
}

const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 3, text: 3, reasoning: 0 } };
const lookup = (fail: boolean) =>
  tool({
    inputSchema: z.object({ id: z.string() }),
    execute: async () => {
      if (fail) throw new Error("orders service unavailable");
      return { status: "shipping" };
    },
  });
const traceIdOf = async (tool: string) =>
  (await server.store.get<{ t: string }>("SELECT trace_id AS t FROM tool_call_spans WHERE project_id = ? AND tool = ?", [server.project, tool]))!.t;

describe("runs from agent spans", () => {
  it("Vercel AI SDK: generateText with a functionId and streamText without one are runs of their agents", async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    onTestFinished(() => context.disable());
    const p = provider("ai-app");
    const tracer = p.getTracer("ai");
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () =>
        (calls++ === 0
          ? { content: [{ type: "tool-call", toolCallId: "call_1", toolName: "find_order", input: JSON.stringify({ id: "A-1" }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] }
          : { content: [{ type: "text", text: "It ships Monday." }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] }) as never,
    });
    await generateText({
      model,
      prompt: "Where is A-1?",
      stopWhen: stepCountIs(3),
      tools: { find_order: lookup(true) },
      experimental_telemetry: { isEnabled: true, tracer, functionId: "order-helper" },
    });
    const streaming = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: "stream-start", warnings: [] },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Hello." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
          ] as never[],
        }),
      }),
    });
    const stream = streamText({ model: streaming, prompt: "Hi", experimental_telemetry: { isEnabled: true, tracer } });
    expect(await stream.text).toBe("Hello.");
    await p.forceFlush();
    await p.shutdown();

    const generated = await traceIdOf("find_order");
    const streamRun = (await server.store.get<{ r: string }>("SELECT run_id AS r FROM runs WHERE project_id = ? AND agent = 'ai-app'", [server.project]))?.r;
    expect(streamRun).toMatch(/^[0-9a-f]{32}$/);
    expect(await runsOf([generated, streamRun!])).toEqual([
      { runId: generated, agent: "order-helper", state: "completed", toolCalls: 1, attempts: 1, failedAttempts: 1 },
      { runId: streamRun, agent: "ai-app", state: "completed", toolCalls: 0, attempts: 0, failedAttempts: 0 },
    ]);
    // The tool span is the agent's: its service is the functionId.
    expect(await server.store.all(`SELECT tool, service, outcome FROM ${SPANS} WHERE project_id = ? AND tool = 'find_order'`, [server.project])).toEqual([
      { tool: "find_order", service: "order-helper", outcome: "failed" },
    ]);
  });

  it("OpenLLMetry: agent spans are runs named by the agent, else by their workflow; a failed agent is a failed run", async () => {
    const p = provider("traceloop-app");
    const tracer = p.getTracer("traceloop.tracer");
    const kind = TL.TRACELOOP_SPAN_KIND;
    const agentRun = (agentName: string | null, workflowName: string, start: number, failed: boolean) => {
      const workflow = tracer.startSpan(`${workflowName}.workflow`, { startTime: start, attributes: { [kind]: TraceloopSpanKindValues.WORKFLOW, [TL.TRACELOOP_WORKFLOW_NAME]: workflowName, [TL.TRACELOOP_ENTITY_NAME]: workflowName } });
      const attributes: Record<string, string> = { [kind]: TraceloopSpanKindValues.AGENT, [TL.TRACELOOP_WORKFLOW_NAME]: workflowName };
      if (agentName) attributes[TL.TRACELOOP_ENTITY_NAME] = agentName;
      const agent = tracer.startSpan(`${agentName ?? "anonymous"}.agent`, { startTime: start + 10, attributes }, trace.setSpan(context.active(), workflow));
      const toolSpan = tracer.startSpan(`refund_${workflowName}.tool`, { startTime: start + 20, attributes: { [kind]: TraceloopSpanKindValues.TOOL, [TL.TRACELOOP_ENTITY_NAME]: `refund_${workflowName}` } }, trace.setSpan(context.active(), agent));
      if (failed) {
        toolSpan.recordException({ name: "Error", message: "refund refused" });
        agent.setStatus({ code: SpanStatusCode.ERROR, message: "agent gave up" });
      }
      toolSpan.end(start + 30);
      agent.end(start + 40);
      workflow.end(start + 50);
      return workflow.spanContext().traceId;
    };
    const triage = agentRun("triage_agent", "support", T, false);
    const billing = agentRun(null, "billing", T + 1000, true);
    await p.shutdown();
    expect(await runsOf([triage, billing])).toEqual([
      { runId: triage, agent: "triage_agent", state: "completed", toolCalls: 1, attempts: 1, failedAttempts: 0 },
      { runId: billing, agent: "billing", state: "failed", toolCalls: 1, attempts: 1, failedAttempts: 1 },
    ]);
  });
});
