import type { Store } from "../store/types";
import type { RowBatch } from "@/lib/ingest/rows";
import { writeRowsPg } from "./write-rows-pg";
import { writeRowsSqlite } from "./write-rows-sqlite";
import type { WriteResult } from "./tally";

export type { WriteResult } from "./tally";

/**
 * Stores a batch of normalised rows in one transaction: the rows themselves, then the rollups,
 * codes catalogue and run counters of the rows that were new. Duplicates change nothing. All or
 * nothing: a failure leaves no row of the batch behind.
 */
export function writeRows(store: Store, projectId: string, batch: RowBatch, now: number = Date.now()): Promise<WriteResult> {
  return store.dialect === "sqlite" ? writeRowsSqlite(store, projectId, batch, now) : writeRowsPg(store, projectId, batch, now);
}
