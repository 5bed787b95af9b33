import type { BatchAggregates } from "../ingest/aggregate";
import { writeRollupBatch } from "../rollups/write-rollup";
import { writeRollupsPg } from "../rollups/write-rollup-pg";
import type { Tx } from "../store/types";

/** Writes a re-classification's counter moves within its transaction, on either engine. */
export async function writeAggregates(tx: Tx, aggregates: BatchAggregates): Promise<void> {
  if (tx.dialect === "sqlite") for (const rollup of aggregates.all()) writeRollupBatch(tx.sqlite, rollup);
  else await writeRollupsPg(tx, aggregates.all());
}
