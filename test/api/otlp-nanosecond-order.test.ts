import { context, trace, type HrTime } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, RandomIdGenerator, SimpleSpanProcessor, type IdGenerator } from "@opentelemetry/sdk-trace-base";
import { SpanAttributes as TL, TraceloopSpanKindValues } from "@traceloop/ai-semantic-conventions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A, type RunTimeline } from "@/lib/contracts/runs";
import { openProject, type ProjectServer } from "../helpers/project";

// OpenLLMetry's tool spans (its own semantic-convention names) for a call retried within one
// millisecond: OTLP carries nanoseconds, so the attempts are numbered by them, never by span id.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T_SECONDS = Math.floor((Date.now() - 600_000) / 1000);
const at = (nanos: number): HrTime => [T_SECONDS, nanos];

/** Span ids that sort against start order, so an order by span id numbers the attempts backwards. */
function descendingSpanIds(): IdGenerator {
  const random = new RandomIdGenerator();
  let next = 0xff;
  return { generateTraceId: () => random.generateTraceId(), generateSpanId: () => (next--).toString(16).padStart(2, "0").repeat(8) };
}

describe("attempt order within one millisecond", () => {
  it("numbers OpenLLMetry retries started 300 µs apart by their nanosecond starts, across export requests", async () => {
    const exporter = new OTLPTraceExporter({ url: `${server.url}/v1/traces`, headers: { "x-faultline-key": server.key } });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "traceloop-fast-retries" }),
      idGenerator: descendingSpanIds(),
      // Every span in its own request, in the order spans end.
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer("traceloop.tracer");
    const workflow = tracer.startSpan("checkout.workflow", { startTime: at(0), attributes: { [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.WORKFLOW } });
    const ctx = trace.setSpan(context.active(), workflow);
    // Three attempts in the same millisecond (…000.100, .400, .700): two time out, the third succeeds.
    const attempts = [100_000, 400_000, 700_000].map((nanos, i) => {
      const span = tracer.startSpan("charge_card.tool", { startTime: at(nanos), attributes: { [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL, [TL.TRACELOOP_ENTITY_NAME]: "charge_card" } }, ctx);
      if (i < 2) span.recordException({ name: "TimeoutError", message: `gateway timed out (${i + 1})` });
      return span;
    });
    // Ended (so exported and stored) success first, then the second failure, then the first.
    attempts[2]!.end(at(900_000));
    attempts[1]!.end(at(800_000));
    attempts[0]!.end(at(850_000));
    workflow.end(at(950_000));
    await provider.shutdown();

    const stored = await server.store.all<{ span_id: string; attempt: number; outcome: string; started_at: number; started_sub_ns: number }>(
      "SELECT span_id, attempt, outcome, started_at, started_sub_ns FROM tool_call_spans WHERE project_id = ? ORDER BY attempt",
      [server.project],
    );
    const ids = attempts.map((s) => s.spanContext().spanId);
    expect(stored).toEqual([
      { span_id: ids[0], attempt: 1, outcome: "failed", started_at: T_SECONDS * 1000, started_sub_ns: 100_000 },
      { span_id: ids[1], attempt: 2, outcome: "failed", started_at: T_SECONDS * 1000, started_sub_ns: 400_000 },
      { span_id: ids[2], attempt: 3, outcome: "ok", started_at: T_SECONDS * 1000, started_sub_ns: 700_000 },
    ]);

    // The run's timeline lists the attempts in the order they started: failures, then the success.
    const runId = workflow.spanContext().traceId;
    const timeline = (await (await fetch(server.at(`/api/v1/runs/${runId}`))).json()) as RunTimeline;
    const outcome = (i: number | null) => (i === null ? null : timeline.strings[i]);
    expect(timeline.calls.map((c) => [c.tool, c.attempts.map((a) => [a[A.spanId], a[A.attempt], outcome(a[A.outcome])])])).toEqual([
      ["charge_card", [[ids[0], 1, "failed"], [ids[1], 2, "failed"], [ids[2], 3, "ok"]]],
    ]);
  });
});
