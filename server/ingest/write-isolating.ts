import type { Store } from "@/db/client";
import { BatchCoalescer } from "@/db/ingest/coalesce-batches";
import { writeRows, type WriteResult } from "@/db/ingest/write-rows";
import type { RowBatch } from "@/lib/ingest/rows";
import { processState } from "../process-state";
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

type Write = (store: Store, projectId: string, rows: RowBatch) => Promise<WriteResult>;

/** The node's coalescer of the store's ingest batches (db/ingest/coalesce-batches.ts): one per store and process. */
function coalescerOf(store: Store): BatchCoalescer {
  const coalescers = processState("ingest-coalescers", () => new WeakMap<Store, BatchCoalescer>());
  let coalescer = coalescers.get(store);
  if (coalescer === undefined) coalescers.set(store, (coalescer = new BatchCoalescer(store)));
  return coalescer;
}

const coalesced: Write = (store, projectId, rows) => coalescerOf(store).write(projectId, rows);
const alone: Write = (store, projectId, rows) => writeRows(store, projectId, rows);

/**
 * Stores a batch in one transaction, shared with the other batches of the project waiting on this
 * node (db/ingest/coalesce-batches.ts); when the database refuses it for a record's content, finds the
 * records at fault by halves (each half again in one transaction) and stores all the others, so one
 * bad record never costs its batch. A storage fault (disk full, server unreachable) still fails the
 * whole request: nothing about the records would change the answer.
 */
export function writeIsolating(store: Store, projectId: string, rows: RowBatch): Promise<{ duplicateIndexes: number[]; refused: RefusedRecord[] }> {
  return isolating(coalesced, store, projectId, rows, true);
}

// The halves are written alone: merged with other callers' batches they would fail their group again.
async function isolating(write: Write, store: Store, projectId: string, rows: RowBatch, withDrops: boolean): Promise<{ duplicateIndexes: number[]; refused: RefusedRecord[] }> {
  try {
    return { duplicateIndexes: (await write(store, projectId, withDrops ? rows : { ...rows, drops: [] })).duplicateIndexes, refused: [] };
  } catch (error) {
    if (!refusesRecord(error)) throw error;
    const records = [...new Set([...rows.spans, ...rows.toolErrors, ...rows.runs].map((e) => e.index))].sort((a, b) => a - b);
    if (records.length <= 1) {
      // The drops alone are counters of spans already refused: they still count.
      if (withDrops && (rows.drops?.length ?? 0) > 0) await writeRows(store, projectId, { spans: [], toolErrors: [], runs: [], drops: rows.drops });
      return { duplicateIndexes: [], refused: records.map((index) => ({ index, code: storageErrorCode(error) })) };
    }
    const half = Math.ceil(records.length / 2);
    const left = await isolating(alone, store, projectId, subBatch(rows, new Set(records.slice(0, half)), withDrops), withDrops);
    const right = await isolating(alone, store, projectId, subBatch(rows, new Set(records.slice(half)), false), false);
    return { duplicateIndexes: [...left.duplicateIndexes, ...right.duplicateIndexes], refused: [...left.refused, ...right.refused] };
  }
}
