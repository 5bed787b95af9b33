import { scrubText, type Outcome, type Resource } from "@/lib/contracts";
import type { AdkToolCallSpan } from "@/lib/contracts/adk";
import { taxonomyClass } from "@/lib/ingest/otlp/kit-classes";
import { derivedColumn } from "./derived";
import { kitSpanAttempts, kitSpanIds } from "./kit-span-ids";
import type { RowBatch } from "./rows";

// `error` is the kit's word for any other exception; `refused` (permission) and `declined` (the tool
// said no) keep their own outcomes.
const OUTCOME: Record<AdkToolCallSpan["outcome"], Outcome> = {
  ok: "ok", refused: "refused", declined: "declined", not_found: "not_found", timed_out: "timed_out", error: "failed",
};

// The kit's loop never retries a call it refused (off the allowlist), one to an unregistered name or
// one the tool declined (adk-tool-errors.md §3.4 rows 1 and 3): their outcome says they are not retryable.
const NEVER_RETRIED = new Set<AdkToolCallSpan["outcome"]>(["refused", "not_found", "declined"]);

/**
 * Maps `ToolCallSpan` records. What the kit leaves out is derived where the request determines it and
 * listed in `derived`: the id (from the content), the attempt (the record's place among its call's
 * records), the time (the request's arrival, `nowMs`). Without a call id the attempt stays unknown.
 */
export function normalizeAdkSpans(
  batch: { runId?: string | undefined; agent?: string | undefined; resource?: Resource | undefined },
  spans: readonly { index: number; span: AdkToolCallSpan; runId: string }[],
  into: RowBatch,
  nowMs: number,
): RowBatch {
  const r = batch.resource;
  const ids = kitSpanIds(spans);
  const attempts = kitSpanAttempts(spans);
  spans.forEach(({ index, span: s, runId }, i) => {
    const code = typeof s.code === "number" ? String(s.code) : s.code;
    const endedAt = s.at ?? nowMs;
    const derived = [
      ...(s.id === undefined ? ["span_id"] : []),
      ...(s.attempt === undefined && attempts[i] !== null ? ["attempt"] : []),
      ...(s.at === undefined ? ["started_at", "ended_at"] : []),
      ...(NEVER_RETRIED.has(s.outcome) ? ["retryable"] : []),
    ];
    into.spans.push({
      index,
      row: {
        spanId: ids[i]!, traceId: null, parentSpanId: null, runId, callId: s.call_id ?? ids[i]!, tool: s.tool, toolVersion: null,
        release: s.release ?? s.agent_version ?? r?.release ?? null, service: s.agent || batch.agent || r?.service || null,
        environment: r?.environment ?? null, sdkName: r?.sdk?.name ?? null, sdkVersion: r?.sdk?.version ?? null, attempt: attempts[i] ?? null,
        startedAt: endedAt - Math.round(s.duration_seconds * 1000), startedSubNs: null, endedAt, outcome: OUTCOME[s.outcome],
        code: code === "" ? null : code, errorClass: taxonomyClass(s.failure), retryable: NEVER_RETRIED.has(s.outcome) ? false : null, retryAfterMs: null, backoffMs: null,
        decision: null, permitted: s.permitted, abandoned: s.abandoned,
        // The kit never records an error message on a span; a class outside the taxonomy is kept as text.
        message: s.failure && !taxonomyClass(s.failure) ? scrubText(s.failure) : null,
        derived: derivedColumn(derived),
        argsHash: null,
        afterError: null,
        source: "adk_span",
      },
    });
  });
  return into;
}
