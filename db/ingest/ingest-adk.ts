import type { IngestResult, Rejection, Resource } from "@/lib/contracts";
import {
  ADK_EVENT_TYPES,
  ADK_SCHEMA_VERSION,
  adkPublishedEventSchema,
  adkRunEventSchema,
  adkToolCallSpanSchema,
  checkAdkRecord,
  type AdkPublishedEvent,
  type AdkRunEvent,
  type AdkToolCallSpan,
} from "@/lib/contracts/adk";
import type { Store } from "../client";
import { normalizeAdkPublished } from "./normalize-adk-published";
import { normalizeAdkRunEvents } from "./normalize-adk-run-events";
import { normalizeAdkSpans } from "./normalize-adk-spans";
import { emptyRowBatch, type RowBatch } from "./rows";
import { writeRows } from "./write-rows";

/** Stores the rows and answers like the native batch: a record whose rows were all known is a duplicate. */
function store(store: Store, projectId: string, rows: RowBatch, accepted: number, rejected: Rejection[]): IngestResult {
  const rowCount = rows.spans.length + rows.toolErrors.length + rows.runs.length;
  if (rowCount === 0) return { accepted, duplicates: 0, rejected: rejected.sort((a, b) => a.index - b.index) };
  const { duplicateIndexes } = writeRows(store, projectId, rows);
  const rowsPerIndex = new Map<number, number>();
  for (const { index } of [...rows.spans, ...rows.toolErrors, ...rows.runs]) rowsPerIndex.set(index, (rowsPerIndex.get(index) ?? 0) + 1);
  const dupPerIndex = new Map<number, number>();
  for (const index of duplicateIndexes) dupPerIndex.set(index, (dupPerIndex.get(index) ?? 0) + 1);
  const duplicates = [...dupPerIndex].filter(([index, n]) => index >= 0 && n === rowsPerIndex.get(index)).length;
  return { accepted, duplicates, rejected: rejected.sort((a, b) => a.index - b.index) };
}

/** One kit run's event list. Events are checked alone; unknown kinds are accepted and not stored. */
export function ingestAdkRunEvents(
  db: Store,
  projectId: string,
  batch: { resource?: Resource | undefined; run_id: string; agent?: string | undefined; agent_version?: string | undefined; state?: string | undefined },
  events: readonly unknown[],
): IngestResult {
  const rejected: Rejection[] = [];
  const valid: (AdkRunEvent | null)[] = events.map((raw, index) => {
    const check = checkAdkRecord(adkRunEventSchema, raw, index, "kind");
    if (check.ok) return check.record;
    rejected.push({ ...check.rejection, id: null });
    return null;
  });
  valid.forEach((e, index) => {
    // A tool event without a tool name or a time cannot be placed on a call's timeline.
    const toolKind = e && ["attempt_failed", "tool_error", "tool_refused", "tool_indeterminate", "tool_result"].includes(e.kind);
    const modelRetry = e?.kind === "attempt_failed" && e.usage != null;
    if (e && toolKind && !modelRetry && (!e.name || e.at == null)) {
      rejected.push({ index, id: null, code: "invalid_record", message: `${e.kind} needs name (the tool) and at (Unix seconds)` });
      valid[index] = null;
    }
  });
  const ctx = { runId: batch.run_id, agent: batch.agent, agentVersion: batch.agent_version, state: batch.state, resource: batch.resource, total: events.length };
  const rows = normalizeAdkRunEvents(ctx, valid, emptyRowBatch());
  return store(db, projectId, rows, valid.filter((e) => e !== null).length, rejected);
}

/** Published event envelopes; unknown types and body versions newer than Faultline reads are rejected. */
export function ingestAdkPublished(db: Store, projectId: string, resource: Resource | undefined, events: readonly unknown[]): IngestResult {
  const rejected: Rejection[] = [];
  const valid: { index: number; event: AdkPublishedEvent }[] = [];
  events.forEach((raw, index) => {
    const check = checkAdkRecord(adkPublishedEventSchema, raw, index, "event_id");
    if (!check.ok) return void rejected.push(check.rejection);
    const e = check.record;
    if (!(ADK_EVENT_TYPES as readonly string[]).includes(e.type)) {
      return void rejected.push({ index, id: e.event_id, code: "unknown_type", message: `type must be one of ${ADK_EVENT_TYPES.join(", ")}` });
    }
    if (e.schema_version > ADK_SCHEMA_VERSION) {
      return void rejected.push({
        index, id: e.event_id, code: "invalid_record",
        message: `schema_version ${e.schema_version} of ${e.type} is newer than the version Faultline reads (${ADK_SCHEMA_VERSION})`,
      });
    }
    valid.push({ index, event: e });
  });
  const { rows, refused } = normalizeAdkPublished(resource, valid, emptyRowBatch());
  const ids = new Map(valid.map((v) => [v.index, v.event.event_id]));
  for (const r of refused) rejected.push({ index: r.index, id: ids.get(r.index) ?? null, code: "invalid_record", message: r.message });
  return store(db, projectId, rows, valid.length - refused.length, rejected);
}

/** `ToolCallSpan` records; each needs a run id, on the record or on the batch. */
export function ingestAdkSpans(
  db: Store,
  projectId: string,
  batch: { resource?: Resource | undefined; run_id?: string | undefined; agent?: string | undefined },
  spans: readonly unknown[],
): IngestResult {
  const rejected: Rejection[] = [];
  const valid: { index: number; span: AdkToolCallSpan; runId: string }[] = [];
  spans.forEach((raw, index) => {
    const check = checkAdkRecord(adkToolCallSpanSchema, raw, index, "id");
    if (!check.ok) return void rejected.push(check.rejection);
    const runId = check.record.run_id ?? batch.run_id;
    if (!runId) return void rejected.push({ index, id: check.record.id, code: "invalid_record", message: "run_id: required on the span or the batch" });
    valid.push({ index, span: check.record, runId });
  });
  const rows = normalizeAdkSpans({ runId: batch.run_id, agent: batch.agent, resource: batch.resource }, valid, emptyRowBatch());
  return store(db, projectId, rows, valid.length, rejected);
}
