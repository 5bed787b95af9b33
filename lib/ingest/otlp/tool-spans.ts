import { DECISIONS, ERROR_CLASSES, LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS, OUTCOMES, type Outcome } from "@/lib/contracts";
import { parseRefusalDetail, parseToolErrorDetail } from "./adk-detail";
import { explicitRunIdLenient, isAgentSpan, isToolErrorRecord, readAgentRun, type AgentRunFields } from "./agent-spans";
import { attrString, type AttrMap } from "./attributes";
import { checkSpan, nanosToMs, type DecodedRequest, type OtlpSpan } from "./decode";
import { outcomeOfClass, taxonomyClass } from "./kit-classes";
import { bool, first, id, int, oneOf, reject, SpanRejection, text, type SpanContext } from "./strict-attributes";
import type { SpanRow } from "@/lib/ingest/rows";

/** A tool span's fields, named as in the normalised span row; null = the span did not say. */
export interface ToolSpanFields extends Omit<SpanRow, "source" | "traceId" | "outcome"> {
  traceId: string;
  outcome: Outcome | null;
  /** Which convention recognised the span (for tests and debugging; not stored). */
  convention: "faultline" | "adk" | "gen_ai" | "openinference";
}

export interface ExtractResult {
  tools: ToolSpanFields[];
  /** Agent spans, each one record of its run. */
  runs: AgentRunFields[];
  /** Spans that were read but refused, with why (OTLP `partialSuccess`). */
  rejected: { spanId: string | null; reason: string }[];
  /** Valid spans that are neither tool nor agent spans (model, HTTP…): not stored. */
  ignored: number;
}

/**
 * Picks the tool and agent spans out of a decoded OTLP request and reads each onto Faultline's
 * tool-call model. Conventions are tried in priority order — `faultline.*`, the reference kit's
 * `adk.*`, the OpenTelemetry GenAI conventions, OpenInference — per field, so a span that carries
 * several keeps the most specific value. A tool span's run id is its own run attribute, else that of
 * its agent ancestor when the ancestor is in the same request, else the trace id — the key its agent
 * span's run record falls back to as well, so a run does not split when its agent span is exported
 * later. Agent and release fall back to the agent ancestor, then to the resource. Nothing is inferred
 * from span order.
 */
export function extractToolSpans(request: DecodedRequest, now: number = Date.now()): ExtractResult {
  const result: ExtractResult = { tools: [], runs: [], rejected: [], ignored: 0 };
  const checked: { span: OtlpSpan; ctx: SpanContext }[] = [];
  for (const rs of request.resources) {
    for (const scope of rs.scopes) {
      const ctx = { resource: rs.attributes, scopeName: scope.name, scopeVersion: scope.version, now };
      for (const raw of scope.spans) {
        const check = checkSpan(raw);
        if (check.ok) checked.push({ span: check.span, ctx });
        else result.rejected.push({ spanId: check.spanId, reason: check.reason });
      }
    }
  }
  const byId = new Map<string, OtlpSpan>();
  for (const { span } of checked) byId.set(`${span.traceId}/${span.spanId}`, span);
  for (const { span, ctx } of checked) {
    const convention = toolConvention(span);
    const agent = !convention && isAgentSpan(span);
    if (!convention && !agent) {
      result.ignored++;
      continue;
    }
    try {
      if (convention) result.tools.push(readToolSpan(span, convention, ctx, agentAncestor(span, byId)));
      else result.runs.push(readAgentRun(span, ctx));
    } catch (error) {
      if (!(error instanceof SpanRejection)) throw error;
      result.rejected.push({ spanId: span.spanId, reason: error.message });
    }
  }
  return result;
}

const ADK_TOOL_EVENTS = new Set(["tool_result", "tool_error", "tool_refused", "tool_indeterminate"]);

/** Which convention marks the span as one tool attempt, or null for any other span. */
function toolConvention(s: OtlpSpan): ToolSpanFields["convention"] | null {
  const a = s.attributes;
  if (a.has("faultline.tool") || a.has("faultline.call_id") || a.has("faultline.attempt")) {
    return isToolErrorRecord(s) ? null : "faultline";
  }
  if (s.name === "adk.tool" || ADK_TOOL_EVENTS.has(attrString(a, "adk.event") ?? "")) return "adk";
  if (attrString(a, "gen_ai.operation.name") === "execute_tool") return "gen_ai";
  if ((attrString(a, "openinference.span.kind") ?? "").toUpperCase() === "TOOL") return "openinference";
  return null;
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

function readToolSpan(s: OtlpSpan, convention: ToolSpanFields["convention"], ctx: SpanContext, agent: OtlpSpan | null): ToolSpanFields {
  const a = s.attributes;
  const ag = agent?.attributes ?? new Map();
  const startedAt = nanosToMs(s.startNs);
  const endedAt = nanosToMs(s.endNs);
  if (startedAt < MIN_TIME_MS) reject("startTimeUnixNano must not be before 2000-01-01");
  if (startedAt > ctx.now + MAX_FUTURE_SKEW_MS) reject("startTimeUnixNano must not be more than one day in the future");
  if (endedAt < startedAt) reject("endTimeUnixNano must not be before startTimeUnixNano");

  const adkEvent = attrString(a, "adk.event");
  const adkRecorder = adkEvent !== null;
  const tool = first(
    text(a, "faultline.tool", LIMITS.maxNameLength),
    adkRecorder ? attrString(a, "adk.name") : s.name === "adk.tool" ? attrString(a, "adk.operation") : null,
    attrString(a, "gen_ai.tool.name"),
    attrString(a, "tool.name"),
  );
  if (tool === null) reject("tool span without a tool name (faultline.tool, adk.operation, gen_ai.tool.name or tool.name)");
  const runId = first(
    id(a, "faultline.run_id"),
    attrString(a, "adk.run_id"),
    agent ? explicitRunIdLenient(agent.attributes) : null,
    s.traceId,
  )!;
  const callId = first(id(a, "faultline.call_id"), attrString(a, "gen_ai.tool.call.id"), attrString(a, "tool_call.id"), s.spanId)!;

  const adkClass = attrString(a, "adk.error.type");
  const errorType = attrString(a, "error.type");
  const statusError = s.statusCode === 2;
  // Parsed once: the kit's OTLP recorder carries the code only inside the status text.
  const recorderDetail = adkRecorder ? attrString(a, "langfuse.observation.status_message") : null;
  const recorder = readRecorderEvent(adkEvent, recorderDetail);

  const outcome = first<Outcome>(
    oneOf(a, "faultline.outcome", OUTCOMES),
    recorder.outcome,
    adkOutcome(a, adkClass),
    // OpenTelemetry leaves the status unset on success and sets Error (with error.type) on failure.
    convention === "adk" ? null : statusError || errorType ? "failed" : "ok",
  );
  const code = first(
    text(a, "faultline.code", LIMITS.maxCodeLength),
    recorder.code,
    errorType && errorType !== "_OTHER" && taxonomyClass(errorType) === null ? errorType : null,
  );
  const errorClass = first<string>(
    oneOf(a, "faultline.error_class", ERROR_CLASSES),
    recorder.errorClass,
    taxonomyClass(adkClass),
    taxonomyClass(errorType),
  );
  const retryable = first(bool(a, "faultline.retryable", true), bool(a, "adk.error.retryable", false), recorder.retryable);
  const attempt = first(int(a, "faultline.attempt", 1, LIMITS.maxAttempt, true), int(a, "adk.attempt", 1, LIMITS.maxAttempt, false));

  return {
    spanId: s.spanId,
    traceId: s.traceId,
    parentSpanId: s.parentSpanId,
    runId,
    callId,
    tool: tool!,
    toolVersion: text(a, "faultline.tool_version", LIMITS.maxVersionLength),
    release: first(
      text(a, "faultline.release", LIMITS.maxVersionLength),
      attrString(ag, "faultline.release"),
      attrString(ag, "faultline.agent_version"),
      attrString(ag, "adk.agent_version"),
      attrString(ag, "gen_ai.agent.version"),
      attrString(ctx.resource, "service.version"),
    ),
    service: first(
      attrString(a, "gen_ai.agent.name"),
      attrString(a, "adk.agent"),
      attrString(ag, "gen_ai.agent.name"),
      attrString(ag, "adk.agent"),
      attrString(ag, "agent.name"),
      attrString(ctx.resource, "service.name"),
    ),
    environment: first(attrString(ctx.resource, "deployment.environment.name"), attrString(ctx.resource, "deployment.environment")),
    sdkName: ctx.scopeName,
    sdkVersion: ctx.scopeVersion,
    attempt,
    startedAt,
    endedAt,
    outcome,
    code,
    errorClass,
    retryable,
    retryAfterMs: int(a, "faultline.retry_after_ms", 0, LIMITS.maxDelayMs, true),
    backoffMs: int(a, "faultline.backoff_ms", 0, LIMITS.maxDelayMs, true),
    decision: oneOf(a, "faultline.decision", DECISIONS),
    permitted: bool(a, "faultline.permitted", true),
    abandoned: bool(a, "faultline.abandoned", true),
    message: first(s.statusMessage, recorder.message, adkClass && !taxonomyClass(adkClass) ? adkClass : null),
    derived: null,
    convention,
  };
}

/** The kit's auto-instrumentation status (`ok | error | cancelled`) read with its error class. */
function adkOutcome(a: AttrMap, adkClass: string | null): Outcome | null {
  const status = attrString(a, "adk.status");
  if (status === "ok") return "ok";
  if (status === "cancelled") return "cancelled";
  if (status === "error" || adkClass) return adkClass ? outcomeOfClass(adkClass) : "failed";
  const outcome = attrString(a, "adk.outcome");
  return outcome && (OUTCOMES as readonly string[]).includes(outcome) ? (outcome as Outcome) : null;
}

interface RecorderRead {
  outcome: Outcome | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
  message: string | null;
}

/** The kit's OTLP recorder: the closing run-event kind plus the detail in the status message. */
function readRecorderEvent(event: string | null, detail: string | null): RecorderRead {
  const none: RecorderRead = { outcome: null, code: null, errorClass: null, retryable: null, message: null };
  if (event === "tool_result") return { ...none, outcome: "ok" };
  if (event === "tool_error") {
    const d = parseToolErrorDetail(detail);
    if (d.variant === "typed") return { ...none, outcome: "failed", code: d.code, message: d.message };
    return { ...none, outcome: "failed", message: detail };
  }
  if (event === "tool_refused") {
    const refusal = parseRefusalDetail(detail);
    // `<code>: <message>` is the tool saying no; without it the loop refused the call.
    if (refusal) return { outcome: "declined", code: refusal.code, errorClass: "ToolRefusal", retryable: false, message: refusal.message || null };
    return { ...none, outcome: "refused", message: detail };
  }
  if (event === "tool_indeterminate") return { ...none, message: detail };
  return none;
}
