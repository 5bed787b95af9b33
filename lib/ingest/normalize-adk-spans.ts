import { scrubText, type Outcome, type Resource } from "@/lib/contracts";
import type { AdkToolCallSpan } from "@/lib/contracts/adk";
import { taxonomyClass } from "@/lib/ingest/otlp/kit-classes";
import type { RowBatch } from "./rows";

// `error` is the kit's word for any other exception; `refused` (permission) and `declined` (the tool
// said no) keep their own outcomes.
const OUTCOME: Record<AdkToolCallSpan["outcome"], Outcome> = {
  ok: "ok", refused: "refused", declined: "declined", not_found: "not_found", timed_out: "timed_out", error: "failed",
};

/** Maps `ToolCallSpan` records; the kit puts no attempt number on them, so attempt stays unknown. */
export function normalizeAdkSpans(
  batch: { runId?: string | undefined; agent?: string | undefined; resource?: Resource | undefined },
  spans: readonly { index: number; span: AdkToolCallSpan; runId: string }[],
  into: RowBatch,
): RowBatch {
  const r = batch.resource;
  for (const { index, span: s, runId } of spans) {
    const code = typeof s.code === "number" ? String(s.code) : s.code;
    into.spans.push({
      index,
      row: {
        spanId: s.id, traceId: null, parentSpanId: null, runId, callId: s.call_id ?? s.id, tool: s.tool, toolVersion: null,
        release: r?.release ?? null, service: s.agent || batch.agent || r?.service || null, environment: r?.environment ?? null,
        sdkName: r?.sdk?.name ?? null, sdkVersion: r?.sdk?.version ?? null, attempt: null,
        startedAt: s.at - Math.round(s.duration_seconds * 1000), endedAt: s.at, outcome: OUTCOME[s.outcome],
        code: code === "" ? null : code, errorClass: taxonomyClass(s.failure), retryable: null, retryAfterMs: null, backoffMs: null,
        decision: null, permitted: s.permitted, abandoned: s.abandoned,
        // The kit never records an error message on a span; a class outside the taxonomy is kept as text.
        message: s.failure && !taxonomyClass(s.failure) ? scrubText(s.failure) : null,
        derived: null,
        source: "adk_span",
      },
    });
  }
  return into;
}
