import type { IngestRecord, Resource } from "../../contracts";

/** An OTLP/HTTP JSON `KeyValue`. */
export interface OtlpAttribute {
  key: string;
  value: { stringValue: string } | { boolValue: boolean } | { intValue: string };
}

/** An OTLP/HTTP JSON span. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: 1;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: 0 | 1 | 2; message?: string };
}

// FNV-1a, 32-bit. Deterministic so every record of a run maps to the same trace and root span.
function fnv(text: string, seed: number): string {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** An id as `hexChars` lowercase hex: kept when it already is, hashed otherwise. */
export function hexId(id: string, hexChars: 16 | 32): string {
  const lower = id.toLowerCase();
  if (lower.length === hexChars && /^[0-9a-f]+$/.test(lower) && !/^0+$/.test(lower)) return lower;
  let out = "";
  for (let seed = 0; out.length < hexChars; seed++) out += fnv(id, seed * 0x9e3779b9);
  return out.slice(0, hexChars);
}

const nanos = (ms: number) => `${Math.round(ms)}000000`;

function attrs(values: Record<string, string | number | boolean | null | undefined>): OtlpAttribute[] {
  const out: OtlpAttribute[] = [];
  for (const [key, v] of Object.entries(values)) {
    if (v === undefined || v === null) continue;
    if (typeof v === "boolean") out.push({ key, value: { boolValue: v } });
    else if (typeof v === "number") out.push({ key, value: { intValue: String(Math.round(v)) } });
    else out.push({ key, value: { stringValue: v } });
  }
  return out;
}

const rootSpanId = (runId: string) => hexId(`run:${runId}`, 16);

/**
 * One native record as an OTLP span. A `tool_call_span` becomes an `execute_tool` span with GenAI
 * attributes plus `faultline.*`; a `run` becomes its `invoke_agent` root; a `tool_error` becomes a
 * zero-length `faultline.tool_error` span under the root, carrying the told text.
 */
export function toOtlpSpan(record: IngestRecord): OtlpSpan {
  // Keyed on run_id for every record type: run and tool_error records carry no trace_id, and all
  // records of one run must land in one trace.
  const traceId = hexId(record.run_id, 32);
  if (record.type === "tool_call_span") {
    const failed = record.outcome !== "ok" && record.outcome !== "declined";
    return {
      traceId,
      spanId: hexId(record.id, 16),
      parentSpanId: rootSpanId(record.run_id),
      name: `execute_tool ${record.tool}`,
      kind: 1,
      startTimeUnixNano: nanos(record.started_at),
      endTimeUnixNano: nanos(record.ended_at),
      attributes: attrs({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": record.tool,
        "gen_ai.tool.call.id": record.call_id,
        "error.type": failed ? (record.code ?? record.error_class ?? "_OTHER") : undefined,
        "faultline.run_id": record.run_id,
        "faultline.call_id": record.call_id,
        "faultline.tool": record.tool,
        "faultline.tool_version": record.tool_version,
        "faultline.attempt": record.attempt,
        "faultline.outcome": record.outcome,
        "faultline.code": record.code,
        "faultline.error_class": record.error_class,
        "faultline.retryable": record.retryable,
        "faultline.retry_after_ms": record.retry_after_ms,
        "faultline.backoff_ms": record.backoff_ms,
        "faultline.decision": record.decision,
        "faultline.permitted": record.permitted,
        "faultline.abandoned": record.abandoned,
        "faultline.args_hash": record.args_hash,
        // "" says "answers no error" (OTLP attributes cannot be null; absent means unknown).
        "faultline.after_error": record.after_error === null ? "" : record.after_error,
        "faultline.release": record.release,
      }),
      status: failed ? { code: 2, ...(record.message ? { message: record.message } : {}) } : { code: 0 },
    };
  }
  if (record.type === "run") {
    return {
      traceId,
      spanId: rootSpanId(record.run_id),
      name: `invoke_agent ${record.agent}`,
      kind: 1,
      startTimeUnixNano: nanos(record.started_at),
      endTimeUnixNano: nanos(record.ended_at ?? record.started_at),
      attributes: attrs({
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": record.agent,
        "faultline.run_id": record.run_id,
        "faultline.run_state": record.state,
        "faultline.agent_version": record.agent_version,
        "faultline.deadline_at": record.deadline_at,
        "faultline.max_tool_attempts": record.max_tool_attempts,
        "faultline.unanswered_tool_uses": record.unanswered_tool_uses,
        "faultline.release": record.release,
      }),
      status: record.state === "failed" ? { code: 2, ...(record.error ? { message: record.error } : {}) } : { code: 0 },
    };
  }
  return {
    traceId,
    spanId: hexId(record.id, 16),
    parentSpanId: rootSpanId(record.run_id),
    name: `faultline.tool_error ${record.tool}`,
    kind: 1,
    startTimeUnixNano: nanos(record.occurred_at),
    endTimeUnixNano: nanos(record.occurred_at),
    attributes: attrs({
      "gen_ai.tool.name": record.tool,
      "gen_ai.tool.call.id": record.call_id,
      "error.type": record.code,
      "faultline.run_id": record.run_id,
      "faultline.call_id": record.call_id,
      "faultline.tool": record.tool,
      "faultline.tool_version": record.tool_version,
      "faultline.code": record.code,
      "faultline.error_class": record.error_class,
      "faultline.retryable": record.retryable,
      "faultline.attempts": record.attempts,
      "faultline.decision": record.decision,
      "faultline.told": record.told,
      "faultline.release": record.release,
      "faultline.experiment": record.experiment,
      "faultline.variant": record.variant,
    }),
    status: { code: record.error_class === "ToolRefusal" ? 0 : 2 },
  };
}

/** Wraps serialised spans into an `ExportTraceServiceRequest` body. */
export function otlpBody(spanJson: readonly string[], resource: Resource | undefined, scopeVersion: string): string {
  const resourceAttrs = attrs({
    "service.name": resource?.service,
    "service.version": resource?.release,
    "deployment.environment.name": resource?.environment,
    "telemetry.sdk.name": resource?.sdk?.name,
    "telemetry.sdk.version": resource?.sdk?.version,
  });
  return `{"resourceSpans":[{"resource":{"attributes":${JSON.stringify(resourceAttrs)}},"scopeSpans":[{"scope":{"name":"faultline-runtime","version":${JSON.stringify(scopeVersion)}},"spans":[${spanJson.join(",")}]}]}]}`;
}
