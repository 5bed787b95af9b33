import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import type { RowBatch } from "@/lib/ingest/rows";
import { isDatabaseError, storageErrorCode, storageFaultKind } from "../storage-fault";

/** A record the database would not store, by its index in the request. */
export interface RefusedRecord {
  index: number;
  /** The engine's code (SQLSTATE or SQLite result code): its message may quote the record. */
  code: string;
}

/**
 * The database refused the statement because of what a row holds (a constraint, a value out of
 * range, a trigger), not because storage is unavailable: only the record is at fault.
 */
function refusesRecord(error: unknown): boolean {
  return isDatabaseError(error) && storageFaultKind(error) === null;
}

/** The batch's rows of the given records (drops, which belong to no record, go along when asked). */
function subBatch(rows: RowBatch, records: ReadonlySet<number>, withDrops: boolean): RowBatch {
  const keep = <T extends { index: number }>(list: readonly T[]) => list.filter((e) => records.has(e.index));
  return { spans: keep(rows.spans), toolErrors: keep(rows.toolErrors), runs: keep(rows.runs), drops: withDrops ? rows.drops : [] };
}

/**
 * Stores a batch in one transaction; when the database refuses it for a record's content, finds the
 * records at fault by halves (each half again in one transaction) and stores all the others, so one
 * bad record never costs its batch. A storage fault (disk full, server unreachable) still fails the
 * whole request: nothing about the records would change the answer.
 */
export async function writeIsolating(store: Store, projectId: string, rows: RowBatch, withDrops = true): Promise<{ duplicateIndexes: number[]; refused: RefusedRecord[] }> {
  try {
    return { duplicateIndexes: (await writeRows(store, projectId, withDrops ? rows : { ...rows, drops: [] })).duplicateIndexes, refused: [] };
  } catch (error) {
    if (!refusesRecord(error)) throw error;
    const records = [...new Set([...rows.spans, ...rows.toolErrors, ...rows.runs].map((e) => e.index))].sort((a, b) => a - b);
    if (records.length <= 1) {
      // The drops alone are counters of spans already refused: they still count.
      if (withDrops && (rows.drops?.length ?? 0) > 0) await writeRows(store, projectId, { spans: [], toolErrors: [], runs: [], drops: rows.drops });
      return { duplicateIndexes: [], refused: records.map((index) => ({ index, code: storageErrorCode(error) })) };
    }
    const half = Math.ceil(records.length / 2);
    const left = await writeIsolating(store, projectId, subBatch(rows, new Set(records.slice(0, half)), withDrops), withDrops);
    const right = await writeIsolating(store, projectId, subBatch(rows, new Set(records.slice(half)), false), false);
    return { duplicateIndexes: [...left.duplicateIndexes, ...right.duplicateIndexes], refused: [...left.refused, ...right.refused] };
  }
}
