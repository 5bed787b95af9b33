import { scrubText } from "@/lib/contracts";
import type { ExtractResult, ToolSpanFields } from "@/lib/ingest/otlp/tool-spans";
import type { RowBatch, SpanRow } from "./rows";

const scrubOrNull = (t: string | null) => (t === null ? null : scrubText(t));

/**
 * A tool span's row, its fields written out: a rest-and-spread copy (`{ convention, …t }` then
 * `{ ...t }`) cost more than the rest of this mapping. `Required` makes a field added to SpanRow a
 * type error here until it is copied too.
 */
function spanRowOf(t: ToolSpanFields): SpanRow {
  const row: SpanRow = {
    spanId: t.spanId, traceId: t.traceId, parentSpanId: t.parentSpanId, runId: t.runId, callId: t.callId, tool: t.tool, toolVersion: t.toolVersion,
    release: t.release, service: t.service, environment: t.environment, sdkName: t.sdkName, sdkVersion: t.sdkVersion, attempt: t.attempt,
    startedAt: t.startedAt, startedSubNs: t.startedSubNs, endedAt: t.endedAt, outcome: t.outcome, code: t.code, errorClass: t.errorClass,
    retryable: t.retryable, retryAfterMs: t.retryAfterMs, backoffMs: t.backoffMs, decision: t.decision, permitted: t.permitted, abandoned: t.abandoned,
    message: scrubOrNull(t.message), derived: t.derived, argsHash: t.argsHash, afterError: t.afterError, source: "otlp",
    emitter: { service: t.emitterService, convention: t.convention },
  } satisfies Required<Omit<SpanRow, "facts" | "classification">>;
  if (t.facts !== undefined) row.facts = t.facts;
  if (t.classification !== undefined) row.classification = t.classification;
  return row;
}

/**
 * Maps an extracted OTLP request onto rows: tool spans, agent spans as run records, the runtime's
 * final-error spans as tool errors, and refused tool-like spans as drop counts. Free text (messages,
 * run errors, told texts) is scrubbed again at ingest. Indexes count tool spans, then agent spans,
 * then tool errors; a told error derived from a failed tool span shares that span's index.
 */
export function normalizeOtlp(extract: Pick<ExtractResult, "tools" | "runs" | "toolErrors" | "told" | "toldPending" | "rejected">, into: RowBatch): RowBatch {
  const { tools, runs, toolErrors } = extract;
  tools.forEach((t, index) => {
    into.spans.push({ index, row: spanRowOf(t) });
  });
  runs.forEach((r, index) => {
    into.runs.push({ index: tools.length + index, row: { ...r, error: scrubOrNull(r.error), source: "otlp" } });
  });
  toolErrors.forEach((e, index) => {
    into.toolErrors.push({ index: tools.length + runs.length + index, row: { ...e, told: scrubOrNull(e.told), source: "otlp" } });
  });
  // A told error derived from a tool span is part of that span's record: it shares its index.
  const spanIndex = new Map(tools.map((t, index) => [t.spanId, index]));
  for (const e of extract.told) {
    into.toolErrors.push({ index: spanIndex.get(e.fromSpanId)!, row: { ...e, told: scrubOrNull(e.told), source: "otlp" } });
  }
  if (extract.toldPending.length > 0) into.toldResults = extract.toldPending.map((r) => ({ ...r, text: scrubText(r.text) }));
  for (const r of extract.rejected) if (r.drop) (into.drops ??= []).push(r.drop);
  return into;
}
