import type { BatchAggregates } from "../ingest/aggregate";
import { jsonRows } from "../store/dialect-sql";
import type { Tx } from "../store/types";

/**
 * Deletes the `run_codes` rows a re-classification left at zero (a recount would have no such row).
 * Only the keys the chunk took counts from, by primary key: the table holds every failing run's
 * codes, too many to scan once per chunk.
 */
export async function pruneRunCodes(tx: Tx, projectId: string, aggregates: BatchAggregates): Promise<void> {
  const batch = aggregates.rollups.runCodes;
  const left = [...batch.rowsFor(batch.rollup.tableList[0]!)].filter((r) => r.count < 0).map((r) => [r.code, r.runId, r.tool]);
  if (left.length === 0) return;
  await tx.run(
    `DELETE FROM run_codes WHERE project_id = @project AND count = 0
       AND (code, run_id, tool) IN (SELECT value ->> 0, value ->> 1, value ->> 2 FROM ${jsonRows(tx.dialect, "@keys")})`,
    { project: projectId, keys: JSON.stringify(left) },
  );
}
