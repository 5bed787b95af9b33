import type { Store } from "../client";
import { BatchAggregates } from "./aggregate";
import type { RowBatch } from "@/lib/ingest/rows";
import { writeRollupBatch } from "../rollups/write-rollup";
import { ingestStatements, runUpsert, spanInsert, toolErrorInsert } from "./statements";

export interface WriteResult {
  /** Request indexes of records that were already stored (same project, type and id). */
  duplicateIndexes: number[];
  stored: number;
}

/**
 * Stores a batch of normalised rows in one transaction: the rows themselves, then the rollups,
 * codes catalogue and run counters of the rows that were new. Duplicates change nothing.
 */
export function writeRows(store: Store, projectId: string, batch: RowBatch, now: number = Date.now()): WriteResult {
  const st = ingestStatements(store.sqlite);
  const run = store.sqlite.transaction((): WriteResult => {
    const duplicateIndexes: number[] = [];
    const agg = new BatchAggregates(projectId);
    const context = { projectId, receivedAt: now };
    let stored = 0;
    for (const { index, row } of batch.spans) {
      const info = st.insertSpan.run(spanInsert.bind(context, row));
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addSpan(row);
      }
    }
    for (const { index, row } of batch.toolErrors) {
      const info = st.insertToolError.run(toolErrorInsert.bind(context, row));
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addToolError(row);
      }
    }
    for (const { index, row } of batch.runs) {
      const info = st.upsertRun.run(runUpsert.bind(context, row));
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addRun(row);
      }
    }
    for (const rollup of agg.all()) writeRollupBatch(store.sqlite, rollup);
    return { duplicateIndexes, stored };
  });
  return run.immediate();
}
