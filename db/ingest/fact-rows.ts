import type { RowBatch, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { errorFacts } from "../schema/error-facts";
import { failureFacts } from "../schema/failure-facts";
import { rowInsert, type InsertRow } from "./row-insert";

type FactRow = Omit<InsertRow<typeof failureFacts>, "projectId">;

/** A failed span's classification facts, stored once per (project, span id) beside the span. */
export const factInsert = rowInsert(
  failureFacts,
  ["projectId"],
  { sqlite: "ON CONFLICT (project_id, span_id) DO NOTHING", postgres: "ON CONFLICT (project_id, span_id) DO NOTHING" },
  "spanId",
);

/** The facts row of a classified span (lib/classify/classify-rows.ts), or null for a span classification skipped. */
export function factRow(row: SpanRow): FactRow | null {
  const c = row.classification;
  if (!c) return null;
  const f = row.facts;
  return {
    spanId: row.spanId,
    runId: row.runId,
    startedAt: row.startedAt,
    errorType: f?.errorType ?? null,
    httpStatus: f?.httpStatus ?? null,
    attrs: f && Object.keys(f.attributes).length > 0 ? JSON.stringify(f.attributes) : null,
    groupKey: c.groupKey,
    ruleId: c.ruleId,
    ruleVersion: c.ruleVersion,
    prior: c.prior === null ? null : JSON.stringify(c.prior),
    revision: c.revision,
  };
}

/** The facts rows of the batch's written spans. */
export function writtenFactRows(batch: RowBatch, written: Uint8Array): FactRow[] {
  const out: FactRow[] = [];
  for (let i = 0; i < batch.spans.length; i++) {
    if (written[i] !== 1) continue;
    const fact = factRow(batch.spans[i]!.row);
    if (fact) out.push(fact);
  }
  return out;
}

type ErrorFactRow = Omit<InsertRow<typeof errorFacts>, "projectId">;

/** A classified final error's facts, stored once per (project, event id) beside it. */
export const errorFactInsert = rowInsert(
  errorFacts,
  ["projectId"],
  { sqlite: "ON CONFLICT (project_id, event_id) DO NOTHING", postgres: "ON CONFLICT (project_id, event_id) DO NOTHING" },
  "eventId",
);

/** The facts row of a final error that classification applied to, or null. */
export function errorFactRow(e: ToolErrorRow): ErrorFactRow | null {
  const c = e.classification;
  if (!c) return null;
  return { eventId: e.eventId, runId: e.runId, occurredAt: e.occurredAt, ruleId: c.ruleId, ruleVersion: c.ruleVersion, prior: c.prior === null ? null : JSON.stringify(c.prior), revision: c.revision };
}

/** The facts rows of the batch's written final errors that classification applied to. */
export function writtenErrorFactRows(batch: RowBatch, written: Uint8Array): ErrorFactRow[] {
  const out: ErrorFactRow[] = [];
  for (let i = 0; i < batch.toolErrors.length; i++) {
    if (written[i] !== 1) continue;
    const fact = errorFactRow(batch.toolErrors[i]!.row);
    if (fact) out.push(fact);
  }
  return out;
}
