import type { RowBatch } from "@/lib/ingest/rows";
import { BatchAggregates } from "./aggregate";

/** What a batch's write reports back to the request. */
export interface WriteResult {
  /** Request indexes of records that were already stored (same project, type and id). */
  duplicateIndexes: number[];
  stored: number;
}

/** Per kind and in batch order, 1 where a row was written and 0 where it was a duplicate. */
export interface WrittenFlags {
  spans: Uint8Array;
  toolErrors: Uint8Array;
  runs: Uint8Array;
}

/** Flags for a batch, every row a duplicate until the write says otherwise. */
export const writtenFlags = (batch: RowBatch): WrittenFlags => ({
  spans: new Uint8Array(batch.spans.length),
  toolErrors: new Uint8Array(batch.toolErrors.length),
  runs: new Uint8Array(batch.runs.length),
});

/**
 * The answer and the rollup rows of a written batch: duplicates by request index (spans, then tool
 * errors, then runs, each in batch order, on either engine), and what the new rows add to every rollup.
 */
export function tally(projectId: string, batch: RowBatch, written: WrittenFlags): { result: WriteResult; aggregates: BatchAggregates } {
  const duplicateIndexes: number[] = [];
  const aggregates = new BatchAggregates(projectId);
  let stored = 0;
  const count = <Row>(entries: readonly { index: number; row: Row }[], flags: Uint8Array, add: (row: Row) => void) => {
    for (let i = 0; i < entries.length; i++) {
      const { index, row } = entries[i]!;
      if (flags[i] === 0) duplicateIndexes.push(index);
      else {
        stored++;
        add(row);
      }
    }
  };
  count(batch.spans, written.spans, (row) => aggregates.addSpan(row));
  count(batch.toolErrors, written.toolErrors, (row) => aggregates.addToolError(row));
  count(batch.runs, written.runs, (row) => aggregates.addRun(row));
  // Drops are counts, not records: every one the request refused is added.
  for (const drop of batch.drops ?? []) aggregates.addDrop(drop);
  return { result: { duplicateIndexes, stored }, aggregates };
}
