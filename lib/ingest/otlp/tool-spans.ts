import { DECISIONS, LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS, type Outcome } from "@/lib/contracts";
import type { DropRow, Emitter, SpanRow } from "@/lib/ingest/rows";
import { agentNameOf, explicitRunIdLenient, isAgentSpan, readAgentRun, type AgentRunFields } from "./agent-spans";
import { attrString } from "./attributes";
import { CONVENTIONS, toolConvention, type ConventionName, type ConventionRead, type ToolConvention } from "./conventions";
import { failureFacts } from "@/lib/classify/facts";
import { fitClass, lastException, otelOutcome, splitErrorType } from "./conventions/otel-errors";
import { checkSpan, nanosToMs, type DecodedRequest, type OtlpSpan } from "./decode";
import { deriveAttempts } from "./derive-attempts";
import { toldErrorsOf, type ToldErrorFields } from "./told-errors";
import type { ToolResultMessage } from "./told-messages";
import { isToolErrorSpan, readToolErrorSpan, type ToolErrorFields } from "./tool-error-spans";
import { readAfterError, readArgsHash } from "./tool-args";
import { looksLikeToolCall } from "./unrecognised";
import { bool, first, int, oneOf, reject, rejectTime, SpanRejection, text, type SpanContext } from "./strict-attributes";

/** A tool span's fields, named as in the normalised span row; null = the span did not say. */
export interface ToolSpanFields extends Omit<SpanRow, "source" | "traceId" | "outcome" | "emitter"> {
  traceId: string;
  outcome: Outcome | null;
  /** Which convention recognised the span. */
  convention: ConventionName;
  /** The sending service (resource `service.name`), for the conformance page. */
  emitterService: string | null;
}

/** What one OTLP request holds for Faultline. */
export interface ExtractResult {
  tools: ToolSpanFields[];
  /** Agent spans, each one record of its run. */
  runs: AgentRunFields[];
  /** The runtime's final-error spans (`faultline.tool_error`). */
  toolErrors: ToolErrorFields[];
  /** Final errors of failed calls whose result to the model the request carries (`told-errors.ts`). */
  told: ToldErrorFields[];
  /** Tool results in model calls that answer calls of earlier requests (matched at storage). */
  toldPending: ToolResultMessage[];
  /** Spans that were read but refused, with why (OTLP `partialSuccess`); `drop` when it looked like a tool call. */
  rejected: { spanId: string | null; reason: string; drop: DropRow | null }[];
  /** Valid spans that are neither tool nor agent spans (model, HTTP…): not stored. */
  ignored: number;
}

/**
 * Picks the tool, agent and final-error spans out of a decoded OTLP request and reads each onto
 * Faultline's model. Conventions (`conventions/`) are tried in priority order per field, so a span
 * that carries several keeps the most specific value. A tool span's run id is its own run attribute,
 * else that of its agent ancestor in the same request, else the trace id. Attempts the source does not
 * number are derived from sibling spans of one call (`derive-attempts.ts`). A span that looks like a
 * tool call but cannot be stored is rejected with a drop reason naming its emitter. A failed call
 * whose result to the model the request carries also gives a final error with its told text.
 */
export function extractToolSpans(request: DecodedRequest, now: number = Date.now()): ExtractResult {
  const result: ExtractResult = { tools: [], runs: [], toolErrors: [], told: [], toldPending: [], rejected: [], ignored: 0 };
  const checked: { span: OtlpSpan; ctx: SpanContext }[] = [];
  for (const rs of request.resources) {
    for (const scope of rs.scopes) {
      const ctx = { resource: rs.attributes, scopeName: scope.name, scopeVersion: scope.version, now };
      const service = attrString(rs.attributes, "service.name");
      for (const raw of scope.spans) {
        const check = checkSpan(raw);
        if (check.ok) checked.push({ span: check.span, ctx });
        else {
          const drop: DropRow = { emitter: { service, convention: "unknown" }, reason: "malformed", attribute: null, at: now };
          result.rejected.push({ spanId: check.spanId, reason: `malformed: ${check.reason}`, drop });
        }
      }
    }
  }
  const byId = new Map<string, OtlpSpan>();
  for (const { span } of checked) byId.set(`${span.traceId}/${span.spanId}`, span);
  for (const { span, ctx } of checked) {
    const convention = toolConvention(span);
    const emitter = (name: string): Emitter => ({ service: attrString(ctx.resource, "service.name"), convention: name });
    try {
      if (convention) result.tools.push(readToolSpan(span, convention, ctx, agentAncestor(span, byId)));
      else if (isToolErrorSpan(span)) result.toolErrors.push(readToolErrorSpan(span, ctx));
      else if (isAgentSpan(span)) result.runs.push(readAgentRun(span, ctx));
      else {
        const lookalike = looksLikeToolCall(span);
        if (!lookalike) result.ignored++;
        else {
          const drop: DropRow = { emitter: emitter(lookalike.convention), reason: "unrecognised", attribute: lookalike.fix, at: now };
          result.rejected.push({ spanId: span.spanId, reason: `unrecognised: looks like a tool call but is not marked as one; add ${lookalike.fix}`, drop });
        }
      }
    } catch (error) {
      if (!(error instanceof SpanRejection)) throw error;
      const name = convention?.name ?? (isToolErrorSpan(span) ? "faultline" : null);
      const drop: DropRow | null = name ? { emitter: emitter(name), reason: error.reason, attribute: error.attribute, at: now } : null;
      result.rejected.push({ spanId: span.spanId, reason: `${error.reason}: ${error.message}`, drop });
    }
  }
  deriveAttempts(result.tools);
  const told = toldErrorsOf(result.tools, byId, result.toolErrors);
  result.told = told.told;
  result.toldPending = told.pending;
  return result;
}

function agentAncestor(span: OtlpSpan, byId: Map<string, OtlpSpan>): OtlpSpan | null {
  let parentId = span.parentSpanId;
  for (let depth = 0; parentId && depth < 64; depth++) {
    const parent = byId.get(`${span.traceId}/${parentId}`);
    if (!parent) return null;
    if (isAgentSpan(parent)) return parent;
    parentId = parent.parentSpanId;
  }
  return null;
}

/** Every convention's reading of the span, most specific first: a field's first non-null value wins. */
function readAll(s: OtlpSpan): ConventionRead[] {
  return CONVENTIONS.map((c) => c.read(s));
}

// A loop, not `first(...reads.map(…))`: twelve fields a span, each with two arrays to collect.
function pick<K extends keyof ConventionRead>(reads: readonly ConventionRead[], key: K): NonNullable<ConventionRead[K]> | null {
  for (const r of reads) {
    const v = r[key];
    if (v !== null && v !== undefined) return v as NonNullable<ConventionRead[K]>;
  }
  return null;
}

function readToolSpan(s: OtlpSpan, convention: ToolConvention, ctx: SpanContext, agent: OtlpSpan | null): ToolSpanFields {
  const a = s.attributes;
  const ag = agent?.attributes ?? new Map();
  const startedAt = nanosToMs(s.startNs);
  const endedAt = nanosToMs(s.endNs);
  if (startedAt < MIN_TIME_MS) rejectTime("startTimeUnixNano must not be before 2000-01-01", "startTimeUnixNano");
  if (startedAt > ctx.now + MAX_FUTURE_SKEW_MS) rejectTime("startTimeUnixNano must not be more than one day in the future", "startTimeUnixNano");
  if (endedAt < startedAt) rejectTime("endTimeUnixNano must not be before startTimeUnixNano", "endTimeUnixNano");

  const reads = readAll(s);
  const tool = pick(reads, "tool");
  if (tool === null) reject(`tool span without a tool name; add ${convention.fixes.tool}`, "no_tool_name", convention.fixes.tool);
  const derived: string[] = [];
  const sourceRun = first(pick(reads, "runId"), agent ? explicitRunIdLenient(agent.attributes) : null);
  if (sourceRun === null) derived.push("run_id");
  const sourceCall = pick(reads, "callId");
  // Without a call id, sibling spans of one tool under one parent are the attempts of one call.
  const callId = first(sourceCall, s.parentSpanId ? `${tool}@${s.parentSpanId}` : null, s.spanId)!;
  if (sourceCall === null) derived.push("call_id");

  const exception = lastException(s);
  const errorType = pick(reads, "errorType");
  const split = splitErrorType(errorType, exception?.type ?? null);
  // The kit states its outcomes itself; every other convention falls back on OpenTelemetry's status.
  const fallback = convention.name === "adk" ? null : otelOutcome(s, errorType, exception);
  const outcome = first<Outcome>(pick(reads, "outcome"), fallback);
  // An exception handled within a call that then succeeded is not the call's error.
  const failure = outcome === "ok" ? null : exception;
  const message = first(s.statusMessage, pick(reads, "message"), failure?.message);
  return {
    spanId: s.spanId,
    traceId: s.traceId,
    parentSpanId: s.parentSpanId,
    runId: first(sourceRun, s.traceId)!,
    callId: callId.length <= LIMITS.maxIdLength ? callId : s.spanId,
    tool: tool!,
    toolVersion: text(a, "faultline.tool_version", LIMITS.maxVersionLength),
    release: first(
      text(a, "faultline.release", LIMITS.maxVersionLength),
      attrString(ag, "faultline.release"),
      attrString(ag, "faultline.agent_version"),
      attrString(ag, "adk.agent_version"),
      attrString(ag, "gen_ai.agent.version"),
      attrString(a, "langfuse.release"),
      attrString(ctx.resource, "service.version"),
    ),
    // The Vercel AI SDK repeats its functionId on every span it starts, tool calls included.
    service: first(
      attrString(a, "gen_ai.agent.name"),
      attrString(a, "adk.agent"),
      attrString(a, "ai.telemetry.functionId"),
      agent ? agentNameOf(agent) : null,
      attrString(ctx.resource, "service.name"),
    ),
    environment: first(
      attrString(ctx.resource, "deployment.environment.name"),
      attrString(ctx.resource, "deployment.environment"),
      attrString(a, "langfuse.environment"),
    ),
    sdkName: ctx.scopeName,
    sdkVersion: ctx.scopeVersion,
    attempt: pick(reads, "attempt"),
    startedAt,
    startedSubNs: Number(s.startNs % 1_000_000n),
    endedAt,
    outcome,
    code: first(pick(reads, "code"), split.code),
    errorClass: first(pick(reads, "errorClass"), split.errorClass, fitClass(failure?.type ?? null)),
    retryable: pick(reads, "retryable"),
    retryAfterMs: int(a, "faultline.retry_after_ms", 0, LIMITS.maxDelayMs, true),
    backoffMs: int(a, "faultline.backoff_ms", 0, LIMITS.maxDelayMs, true),
    decision: oneOf(a, "faultline.decision", DECISIONS),
    permitted: bool(a, "faultline.permitted", true),
    abandoned: bool(a, "faultline.abandoned", true),
    message,
    // What classification rules match beyond Faultline's fields (lib/classify): failures only.
    ...(outcome !== null && outcome !== "ok" ? { facts: failureFacts({ attributes: a, errorType: first(failure?.type ?? null, errorType), message }) } : {}),
    derived: derived.length > 0 ? derived.join(",") : null,
    argsHash: readArgsHash(a),
    afterError: readAfterError(a),
    convention: convention.name,
    emitterService: attrString(ctx.resource, "service.name"),
  };
}
