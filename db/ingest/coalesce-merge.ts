import type { RowBatch } from "@/lib/ingest/rows";
import type { WriteResult } from "./tally";

/** Several callers' batches as one: the merged batch and where each caller's request indexes went. */
export interface MergedBatches {
  batch: RowBatch;
  /** Per caller, in order: what was added to its request indexes, and how many rows it brought. */
  parts: { offset: number; rows: number }[];
}

/** Records of every kind a batch holds (drops are counts, not records). */
export const recordsOf = (batch: RowBatch): number => batch.spans.length + batch.toolErrors.length + batch.runs.length;

/**
 * The batches as one batch, in the order given: each caller's entries keep their order within each
 * kind, and their request indexes are moved past the previous caller's, so the merged write's
 * duplicates can be handed back. A record sent by two callers is written for the first of them and
 * reported as a duplicate to the later one, as writing them one after the other would.
 * `toldResults` are not carried: they are matched before the write (server/ingest/stored-told.ts).
 */
export function mergeBatches(batches: readonly RowBatch[]): MergedBatches {
  const merged: RowBatch = { spans: [], toolErrors: [], runs: [], drops: [] };
  const parts: MergedBatches["parts"] = [];
  let offset = 0;
  for (const b of batches) {
    let end = 0;
    const move = <Row>(from: readonly { index: number; row: Row }[], into: { index: number; row: Row }[]) => {
      for (const { index, row } of from) {
        into.push({ index: index + offset, row });
        if (index + 1 > end) end = index + 1;
      }
    };
    move(b.spans, merged.spans);
    move(b.toolErrors, merged.toolErrors);
    move(b.runs, merged.runs);
    for (const drop of b.drops ?? []) merged.drops!.push(drop);
    parts.push({ offset, rows: recordsOf(b) });
    offset += end;
  }
  return { batch: merged, parts };
}

/**
 * The merged write's answer cut back into one answer per caller, each as writing its batch alone
 * would have given it: its own request indexes, in the merged order (spans, then tool errors, then
 * runs, each in batch order), and the rows it stored.
 */
export function splitResult(merged: MergedBatches, result: WriteResult): WriteResult[] {
  const { parts } = merged;
  const out: WriteResult[] = parts.map(() => ({ duplicateIndexes: [], stored: 0 }));
  for (const index of result.duplicateIndexes) {
    // The last caller whose offset is at or before the index: offsets only grow.
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (parts[mid]!.offset <= index) lo = mid;
      else hi = mid - 1;
    }
    out[lo]!.duplicateIndexes.push(index - parts[lo]!.offset);
  }
  parts.forEach((part, k) => (out[k]!.stored = part.rows - out[k]!.duplicateIndexes.length));
  return out;
}
