// Seeds spans into a database migrated to a schema from before `span_emitters` (migration
// span_emitters), when a span row carried its emitter's values itself: for tests of earlier
// migrations and of that one. Today's insert statement writes `emitter_id` instead.
import type { Store } from "@/db/client";
import { hexToBytes } from "@/db/schema/hex-bytes";
import type { SpanRow } from "@/lib/ingest/rows";

const COLUMNS: [string, (r: SpanRow) => unknown][] = [
  ["span_id", (r) => r.spanId], ["trace_id", (r) => r.traceId], ["parent_span_id", (r) => r.parentSpanId], ["run_id", (r) => r.runId],
  ["call_id", (r) => r.callId], ["tool", (r) => r.tool], ["tool_version", (r) => r.toolVersion], ["release", (r) => r.release],
  ["service", (r) => r.service], ["environment", (r) => r.environment], ["sdk_name", (r) => r.sdkName], ["sdk_version", (r) => r.sdkVersion],
  ["attempt", (r) => r.attempt], ["started_at", (r) => r.startedAt], ["ended_at", (r) => r.endedAt], ["outcome", (r) => r.outcome],
  ["code", (r) => r.code], ["error_class", (r) => r.errorClass], ["retryable", (r) => flag(r.retryable)], ["retry_after_ms", (r) => r.retryAfterMs],
  ["backoff_ms", (r) => r.backoffMs], ["decision", (r) => r.decision], ["permitted", (r) => flag(r.permitted)], ["abandoned", (r) => flag(r.abandoned)],
  ["message", (r) => r.message], ["source", (r) => r.source], ["derived", (r) => r.derived], ["args_hash", (r) => (r.argsHash === null ? null : hexToBytes(r.argsHash))],
  ["after_error", (r) => r.afterError], ["started_sub_ns", (r) => r.startedSubNs],
];

const flag = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/** Inserts `rows` with their emitter values on the span row; `without` names columns the old schema did not have yet. */
export async function insertLegacySpans(store: Store, context: { projectId: string; receivedAt: number }, rows: readonly SpanRow[], without: readonly string[] = []): Promise<void> {
  const columns = COLUMNS.filter(([name]) => !without.includes(name));
  const list = ["project_id", "received_at", ...columns.map(([name]) => name)].join(", ");
  for (const row of rows) {
    await store.run(`INSERT INTO tool_call_spans (${list}) VALUES (${["?", "?", ...columns.map(() => "?")].join(", ")})`, [
      context.projectId, context.receivedAt, ...columns.map(([, of]) => of(row)),
    ]);
  }
}
