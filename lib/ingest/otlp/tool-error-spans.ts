import { DECISIONS, ERROR_CLASSES, LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS } from "@/lib/contracts";
import type { ToolErrorRow } from "@/lib/ingest/rows";
import { isToolErrorRecord } from "./agent-spans";
import { attrString } from "./attributes";
import { nanosToMs, type OtlpSpan } from "./decode";
import { bool, first, id, int, oneOf, reject, rejectTime, text, type SpanContext } from "./strict-attributes";

/** A final tool error read from a span, named as in the normalised row. */
export type ToolErrorFields = Omit<ToolErrorRow, "source">;

/** The runtime's OTLP exporter sends each final tool error as a `faultline.tool_error` span. */
export const isToolErrorSpan = isToolErrorRecord;

/**
 * One `faultline.tool_error` span as the call's final error, as its native `tool_error` record would
 * be stored: the event id is the span id, the time its start, the told text `faultline.told` (unknown
 * when absent: the model was told nothing). Run and call ids are required, as in the native record.
 */
export function readToolErrorSpan(s: OtlpSpan, ctx: SpanContext): ToolErrorFields {
  const a = s.attributes;
  const occurredAt = nanosToMs(s.startNs);
  if (occurredAt < MIN_TIME_MS) rejectTime("startTimeUnixNano must not be before 2000-01-01", "startTimeUnixNano");
  if (occurredAt > ctx.now + MAX_FUTURE_SKEW_MS) rejectTime("startTimeUnixNano must not be more than one day in the future", "startTimeUnixNano");
  const runId = id(a, "faultline.run_id") ?? reject("a tool error span needs faultline.run_id", "invalid_attribute", "faultline.run_id");
  const callId = first(id(a, "faultline.call_id"), attrString(a, "gen_ai.tool.call.id")) ?? reject("a tool error span needs faultline.call_id", "invalid_attribute", "faultline.call_id");
  const tool = first(text(a, "faultline.tool", LIMITS.maxNameLength), attrString(a, "gen_ai.tool.name")) ?? reject("a tool error span needs faultline.tool", "no_tool_name", "faultline.tool");
  // An experiment without its variant (or the reverse) cannot be counted: both or neither are kept.
  const experiment = id(a, "faultline.experiment");
  const variant = id(a, "faultline.variant");
  const arm = experiment != null && variant != null ? { experiment, variant } : { experiment: null, variant: null };
  return {
    eventId: s.spanId,
    runId,
    callId,
    tool,
    toolVersion: text(a, "faultline.tool_version", LIMITS.maxVersionLength),
    release: first(text(a, "faultline.release", LIMITS.maxVersionLength), attrString(ctx.resource, "service.version")),
    service: attrString(ctx.resource, "service.name"),
    environment: first(attrString(ctx.resource, "deployment.environment.name"), attrString(ctx.resource, "deployment.environment")),
    code: text(a, "faultline.code", LIMITS.maxCodeLength),
    errorClass: oneOf(a, "faultline.error_class", ERROR_CLASSES),
    retryable: bool(a, "faultline.retryable", true),
    attempts: int(a, "faultline.attempts", 1, LIMITS.maxAttempt, true),
    decision: oneOf(a, "faultline.decision", DECISIONS),
    told: text(a, "faultline.told", LIMITS.maxTextLength),
    derived: null,
    occurredAt,
    ...arm,
  };
}
