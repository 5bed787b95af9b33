import { LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS, RUN_STATES, type RunState } from "@/lib/contracts";
import { KIT_RUN_STATES } from "@/lib/contracts/adk";
import type { RunRow } from "@/lib/ingest/rows";
import { attrString, type AttrMap } from "./attributes";
import { nanosToMs, type OtlpSpan } from "./decode";
import { first, id, int, oneOf, rejectTime, SpanRejection, text, type SpanContext } from "./strict-attributes";

/** A run record read from an agent span, named as in the normalised run row; null = the span did not say. */
export interface AgentRunFields extends Omit<RunRow, "source"> {
  traceId: string;
  spanId: string;
}

const AGENT_OPERATIONS = new Set(["invoke_agent", "create_agent"]);
// The Vercel AI SDK's top-level calls: one agent loop each (their `.doGenerate`/`.doStream` children are model calls).
const VERCEL_AGENT_OPERATIONS = new Set(["ai.generateText", "ai.streamText"]);

const vercelAgent = (s: OtlpSpan) => VERCEL_AGENT_OPERATIONS.has(attrString(s.attributes, "ai.operationId") ?? s.name);
const traceloopAgent = (s: OtlpSpan) => (attrString(s.attributes, "traceloop.span.kind") ?? "").toLowerCase() === "agent";
const langfuseAgent = (s: OtlpSpan) => attrString(s.attributes, "langfuse.observation.type") === "agent";
const UNFINISHED = new Set<string>(["pending", "running", "suspended"]);

/** The runtime's exporter sends each final tool error as a zero-length span; it carries run attributes but is no run. */
export const isToolErrorRecord = (s: OtlpSpan) => s.name.startsWith("faultline.tool_error") || s.attributes.has("faultline.told");

/**
 * An agent (run) span: GenAI `invoke_agent`/`create_agent`, OpenInference `AGENT`, the Vercel AI SDK's
 * `ai.generateText`/`ai.streamText`, Traceloop `traceloop.span.kind = agent`, a Langfuse `agent`
 * observation, the kit's `adk.run` span or its recorder's root (`adk.state` / `adk.agent` without
 * `adk.event`), or a span carrying Faultline's run attributes that is no other GenAI operation. Call
 * only for spans that are not tool spans.
 */
export function isAgentSpan(s: OtlpSpan): boolean {
  const a = s.attributes;
  const operation = attrString(a, "gen_ai.operation.name");
  if (operation !== null && AGENT_OPERATIONS.has(operation)) return true;
  if (s.name === "adk.run" || (attrString(a, "openinference.span.kind") ?? "").toUpperCase() === "AGENT") return true;
  if (vercelAgent(s) || traceloopAgent(s) || langfuseAgent(s)) return true;
  if ((a.has("adk.state") || a.has("adk.agent")) && !a.has("adk.event")) return true;
  if (isToolErrorRecord(s)) return false;
  return (a.has("faultline.run_state") || a.has("faultline.run_id")) && operation === null && !a.has("openinference.span.kind");
}

/**
 * The agent an agent span names, by its convention: GenAI `gen_ai.agent.name`, the kit's `adk.agent`,
 * OpenInference `agent.name`, the Vercel AI SDK's `functionId` (`ai.telemetry.functionId`), Traceloop's
 * agent name (`traceloop.entity.name`) or else its workflow's (`traceloop.workflow.name`), a Langfuse
 * agent observation's name. Null when it names none.
 */
export function agentNameOf(s: OtlpSpan): string | null {
  const a = s.attributes;
  return first(
    attrString(a, "gen_ai.agent.name"),
    attrString(a, "adk.agent"),
    attrString(a, "agent.name"),
    vercelAgent(s) ? attrString(a, "ai.telemetry.functionId") : null,
    traceloopAgent(s) ? first(attrString(a, "traceloop.entity.name"), attrString(a, "traceloop.workflow.name")) : null,
    langfuseAgent(s) && s.name !== "" ? s.name : null,
  );
}

/** The run id a span states itself (`faultline.run_id`, then the kit's `adk.run_id`), or null. */
export const explicitRunId = (a: AttrMap): string | null => first(id(a, "faultline.run_id"), attrString(a, "adk.run_id"));

/** Like `explicitRunId`, but a value Faultline would refuse is unknown rather than a rejection (for another span's id). */
export function explicitRunIdLenient(a: AttrMap): string | null {
  try {
    const runId = explicitRunId(a);
    return runId !== null && runId.length <= LIMITS.maxIdLength ? runId : null;
  } catch (error) {
    if (error instanceof SpanRejection) return null;
    throw error;
  }
}

function kitState(a: AttrMap): string | null {
  const state = attrString(a, "adk.state");
  return state !== null && (KIT_RUN_STATES as readonly string[]).includes(state) ? state : null;
}

/**
 * One agent span as a run record. The run id is the span's own run attribute, else its trace id — the
 * same key its tool spans fall back to, whichever export request each of them arrives in.
 */
export function readAgentRun(s: OtlpSpan, ctx: SpanContext): AgentRunFields {
  const a = s.attributes;
  const startedAt = nanosToMs(s.startNs);
  // OTLP requires an end time; a zero one is a span exported before it ended.
  const ended = s.endNs > 0n ? nanosToMs(s.endNs) : null;
  if (startedAt < MIN_TIME_MS) rejectTime("startTimeUnixNano must not be before 2000-01-01", "startTimeUnixNano");
  if (startedAt > ctx.now + MAX_FUTURE_SKEW_MS) rejectTime("startTimeUnixNano must not be more than one day in the future", "startTimeUnixNano");
  if (ended !== null && ended < startedAt) rejectTime("endTimeUnixNano must not be before startTimeUnixNano", "endTimeUnixNano");

  const state = first<string>(
    oneOf<RunState>(a, "faultline.run_state", RUN_STATES),
    kitState(a),
    // OpenTelemetry sets status Error on failure and leaves it unset on success.
    s.statusCode === 2 ? "failed" : ended === null ? "running" : "completed",
  )!;
  const endedAt = UNFINISHED.has(state) ? null : ended;
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    // A re-sent export is the same record; a later export of the same span with another state or end is a newer one.
    recordId: `${s.spanId}@${state}${endedAt === null ? "" : `:${endedAt}`}`,
    runId: first(explicitRunId(a), s.traceId)!,
    agent: first(agentNameOf(s), attrString(ctx.resource, "service.name")),
    release: first(
      text(a, "faultline.agent_version", LIMITS.maxVersionLength),
      text(a, "faultline.release", LIMITS.maxVersionLength),
      attrString(a, "adk.agent_version"),
      attrString(a, "gen_ai.agent.version"),
      attrString(ctx.resource, "service.version"),
    ),
    service: attrString(ctx.resource, "service.name"),
    environment: first(attrString(ctx.resource, "deployment.environment.name"), attrString(ctx.resource, "deployment.environment")),
    sdkName: ctx.scopeName,
    sdkVersion: ctx.scopeVersion,
    startedAt,
    endedAt,
    state,
    deadlineAt: int(a, "faultline.deadline_at", MIN_TIME_MS, Number.MAX_SAFE_INTEGER, true),
    maxToolAttempts: int(a, "faultline.max_tool_attempts", 1, LIMITS.maxAttempt, true),
    error: state === "failed" ? s.statusMessage : null,
    unansweredToolUses: int(a, "faultline.unanswered_tool_uses", 0, LIMITS.maxUnansweredToolUses, true),
  };
}
