// Normalised rows for seeding tests through writeRows: the identifying fields are given, the rest
// default to "the source did not say" (null) or the runtime's usual values.
import type { RunRow, SpanRow } from "@/lib/ingest/rows";

type SpanIdentity = Pick<SpanRow, "spanId" | "runId" | "callId" | "tool" | "attempt" | "startedAt" | "endedAt">;

export function spanRow(fields: SpanIdentity & Partial<SpanRow>): SpanRow {
  return {
    traceId: null, parentSpanId: null, startedSubNs: null, toolVersion: "1.0.0", release: null, service: null, environment: "prod",
    sdkName: "faultline-runtime", sdkVersion: "0.1.0", outcome: "ok", code: null, errorClass: null, retryable: null,
    retryAfterMs: null, backoffMs: null, decision: null, permitted: true, abandoned: false, message: null, derived: null, argsHash: null, afterError: null, source: "native",
    ...fields,
  };
}

export function runRow(fields: Pick<RunRow, "runId" | "startedAt" | "endedAt" | "state"> & Partial<RunRow>): RunRow {
  return {
    recordId: `${fields.runId}-rec`, agent: null, release: null, service: null, environment: "prod", sdkName: "faultline-runtime",
    sdkVersion: "0.1.0", deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
    ...fields,
  };
}
