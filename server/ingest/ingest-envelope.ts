import type { Store } from "@/db/client";
import { NUL_REPLACEMENT, replaceNulInPlace, type IngestNote, type IngestResult, type Rejection } from "@/lib/contracts";
import { classifyErrorRows } from "@/lib/classify/classify-errors";
import { classifyRows } from "@/lib/classify/classify-rows";
import { rulesetFor } from "./rulesets";
import { countDuplicateRecords, type IngestFormat } from "@/lib/ingest/format";
import type { RowBatch } from "@/lib/ingest/rows";
import { syncToldClassification } from "@/lib/ingest/otlp/told-errors";
import { addStoredToldErrors } from "./stored-told";
import { writeIsolating } from "./write-isolating";

type Entry = { index: number; row: object };
const entriesOf = (rows: RowBatch): Entry[] => [...rows.spans, ...rows.toolErrors, ...rows.runs];

/** The id a record is known by in answers: its span, event or record id. */
function recordId(row: object): string | null {
  const r = row as { spanId?: string; eventId?: string; recordId?: string };
  return r.spanId ?? r.eventId ?? r.recordId ?? null;
}

/**
 * Applies the text rule of lib/contracts/text.ts to every row, the one place every format's rows
 * pass before storage, so both engines store the same text: a note per record that had U+0000 replaced.
 */
function replaceNulInRows(rows: RowBatch): IngestNote[] {
  const changed = new Map<number, { id: string | null; fields: number }>();
  for (const { index, row } of entriesOf(rows)) {
    const fields = replaceNulInPlace(row as Record<string, unknown>);
    if (fields > 0) changed.set(index, { id: changed.get(index)?.id ?? recordId(row), fields: (changed.get(index)?.fields ?? 0) + fields });
  }
  for (const drop of rows.drops ?? []) replaceNulInPlace(drop as unknown as Record<string, unknown>);
  return [...changed].sort(([a], [b]) => a - b).map(([index, { id }]) => ({ index, id, message: `U+0000 (NUL) characters were stored as ${NUL_REPLACEMENT} (U+FFFD)` }));
}

/**
 * Normalises a parsed envelope with its format and stores the rows in one transaction. `accepted`
 * counts every record stored or already stored, of which `duplicates` were already stored; a record
 * the database refuses is rejected alone (`storage_refused`) and the rest of the batch is stored.
 */
export async function ingestEnvelope<E>(store: Store, projectId: string, format: IngestFormat<E>, envelope: E, now?: number): Promise<IngestResult> {
  const { rows, rejections, accepted } = format.normalize(envelope, now);
  const storedAttempts = rows.toldResults?.length ? await addStoredToldErrors(store, projectId, rows) : undefined;
  const notes = replaceNulInRows(rows);
  // Failures without a code get one from the project's rules (lib/classify), on the text as stored.
  // Final errors follow their call's last failed attempt (a told error its own span), else the rules
  // (lib/classify/classify-errors.ts); told errors then take their span's fields as classified.
  if (rows.spans.length > 0 || rows.toolErrors.length > 0) {
    const ruleset = await rulesetFor(store, projectId);
    classifyRows(rows.spans, ruleset);
    classifyErrorRows(rows, ruleset, storedAttempts);
    syncToldClassification(rows);
  }
  const rowCount = rows.spans.length + rows.toolErrors.length + rows.runs.length + (rows.drops?.length ?? 0);
  const { duplicateIndexes, refused } = rowCount > 0 ? await writeIsolating(store, projectId, rows) : { duplicateIndexes: [], refused: [] };
  const ids = new Map(entriesOf(rows).map((e) => [e.index, recordId(e.row)]));
  const storageRejections: Rejection[] = refused.map(({ index, code }) => ({
    index,
    id: ids.get(index) ?? null,
    code: "storage_refused",
    message: `the database refused to store this record${code ? ` (${code})` : ""}; the rest of the batch was stored`,
  }));
  const refusedIndexes = new Set(refused.map((r) => r.index));
  const kept = notes.filter((n) => !refusedIndexes.has(n.index));
  return {
    accepted: accepted - refused.length,
    duplicates: countDuplicateRecords(rows, duplicateIndexes),
    rejected: [...rejections, ...storageRejections],
    ...(kept.length > 0 ? { notes: kept } : {}),
  };
}
