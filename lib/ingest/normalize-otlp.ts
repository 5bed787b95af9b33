import { scrubText } from "@/lib/contracts";
import type { ExtractResult } from "@/lib/ingest/otlp/tool-spans";
import type { RowBatch } from "./rows";

const scrubOrNull = (t: string | null) => (t === null ? null : scrubText(t));

/**
 * Maps an extracted OTLP request onto rows: tool spans, agent spans as run records, the runtime's
 * final-error spans as tool errors, and refused tool-like spans as drop counts. Free text (messages,
 * run errors, told texts) is scrubbed again at ingest. Indexes count tool spans, then agent spans,
 * then tool errors; a told error derived from a failed tool span shares that span's index.
 */
export function normalizeOtlp(extract: Pick<ExtractResult, "tools" | "runs" | "toolErrors" | "told" | "toldPending" | "rejected">, into: RowBatch): RowBatch {
  const { tools, runs, toolErrors } = extract;
  tools.forEach(({ convention, emitterService, ...t }, index) => {
    into.spans.push({ index, row: { ...t, message: scrubOrNull(t.message), source: "otlp", emitter: { service: emitterService, convention } } });
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
