import type { Executor, Store } from "../store/types";
import { ChunkFolder } from "./chunk-folder";
import { readFoldHorizon, type FoldHorizon } from "./fold-horizon";
import { recomputeFindings } from "./recompute-findings";
import { driftSql, type ErrorScanRow, type SpanScanRow, type StateRow } from "./statements";

/** Rows folded in per transaction: bounded so a large backlog never holds the writer lock for long. */
const CHUNK = 5000;

export interface RefreshResult {
  spans: number;
  errors: number;
  findingsRecomputed: boolean;
}

export interface FoldOptions {
  now?: number;
  /** Rows per transaction (spans, then errors). */
  limit?: number;
  /** Asked before each chunk; false stops the fold there (a job that lost its lock). */
  keepGoing?: () => Promise<boolean>;
}

/**
 * Locks the project's drift state row for the rest of the transaction and returns it (created on
 * first use). Every fold chunk and findings recompute starts here, so on PostgreSQL they take turns
 * per project whichever node runs them; SQLite's write transactions already do.
 */
export async function lockDriftState(tx: Executor, projectId: string): Promise<StateRow> {
  const row = await tx.get<StateRow>(driftSql(tx.dialect).lockState, { project: projectId });
  if (!row) throw new Error(`drift state of ${projectId} could not be locked`);
  return row;
}

/**
 * Folds at most one chunk of the spans and tool errors that arrived since the last fold (up to
 * `horizon`, see fold-horizon.ts; read here when not given) into the drift accumulators, in one
 * transaction with its watermark (a crash or a concurrent fold never counts a row twice), and
 * marks the findings stale. Returns the rows folded; 0 means caught up with the horizon. A smaller
 * `limit` keeps each transaction short when folding beside live ingest.
 */
export async function foldDriftChunk(
  store: Store,
  projectId: string,
  now: number = Date.now(),
  limit: number = CHUNK,
  horizon?: FoldHorizon,
): Promise<{ spans: number; errors: number }> {
  const upTo = horizon ?? (await readFoldHorizon(store));
  const sql = driftSql(store.dialect);
  return store.transaction(async (tx) => {
    const state = await lockDriftState(tx, projectId);
    const spanRows = await tx.all<SpanScanRow>(sql.spansAfter, { project: projectId, after: state.span_watermark, horizon: upTo.spans, limit });
    // Errors only once spans are caught up, so that an error's call usually finds its attempts.
    const errorRows =
      spanRows.length < limit ? await tx.all<ErrorScanRow>(sql.errorsAfter, { project: projectId, after: state.error_watermark, horizon: upTo.errors, limit }) : [];
    if (spanRows.length + errorRows.length > 0) {
      await ChunkFolder.fold(tx, projectId, spanRows, errorRows, { spans: state.span_watermark, errors: state.error_watermark });
      await tx.run(sql.putWatermarks, {
        project: projectId,
        span: spanRows.at(-1)?.pk ?? state.span_watermark,
        error: errorRows.at(-1)?.pk ?? state.error_watermark,
        now,
      });
    }
    return { spans: spanRows.length, errors: errorRows.length };
  });
}

/**
 * Folds chunk after chunk until caught up. A horizon serves until the chunks stop filling up, then
 * a fresh one is read (an instant's pause for ingest on PostgreSQL); a fresh horizon with nothing
 * under it means done. Returns the rows folded.
 */
export async function foldDrift(store: Store, projectId: string, options: FoldOptions = {}): Promise<{ spans: number; errors: number; complete: boolean }> {
  const limit = options.limit ?? CHUNK;
  let spans = 0;
  let errors = 0;
  for (;;) {
    const horizon = await readFoldHorizon(store);
    let foldedUnderHorizon = 0;
    for (;;) {
      if (options.keepGoing && !(await options.keepGoing())) return { spans, errors, complete: false };
      const folded = await foldDriftChunk(store, projectId, options.now ?? Date.now(), limit, horizon);
      spans += folded.spans;
      errors += folded.errors;
      foldedUnderHorizon += folded.spans + folded.errors;
      if (folded.spans < limit && folded.errors < limit) break;
    }
    if (foldedUnderHorizon === 0) return { spans, errors, complete: true };
  }
}

/**
 * Marks a project's findings stale, so the next refresh recomputes them without new rows: the
 * re-classification job calls it when it has brought history to a new rules revision, after which
 * the codes a reorder or pack switch moved are known (db/classify/config-events.ts). No-op for a
 * project drift never folded.
 */
export async function markFindingsStale(db: Executor, projectId: string): Promise<void> {
  await db.run(driftSql(db.dialect).markFindingsStale, { project: projectId });
}

/** True when rows wait above the project's watermarks or its findings were never computed since the last fold. */
async function needsRefresh(db: Executor, projectId: string): Promise<boolean> {
  const sql = driftSql(db.dialect);
  const state = await db.get<StateRow>(sql.getState, { project: projectId });
  if (state?.findings_computed_at == null) return true;
  if (await db.get(sql.hasToldStale, { project: projectId })) return true;
  if (await db.get(sql.hasSpanAfter, { project: projectId, after: state.span_watermark })) return true;
  return (await db.get(sql.hasErrorAfter, { project: projectId, after: state.error_watermark })) !== undefined;
}

/**
 * Brings a project's drift up to date: folds every new row, then recomputes the findings if they
 * are stale (rows were folded, here or by a background fold; the told counts changed) or were never
 * computed. Cheap when nothing is new: a few empty probes.
 */
export async function refreshDrift(store: Store, projectId: string, now: number = Date.now(), options: Omit<FoldOptions, "now"> = {}): Promise<RefreshResult> {
  if (!(await needsRefresh(store, projectId))) return { spans: 0, errors: 0, findingsRecomputed: false };
  const folded = await foldDrift(store, projectId, { ...options, now });
  const sql = driftSql(store.dialect);
  if (!folded.complete) return { spans: folded.spans, errors: folded.errors, findingsRecomputed: false };
  // The told mark is taken in its own short statement, before the counts are read (in the recompute):
  // a count committed after it marks the project again, so no change is lost, and ingest never waits
  // on a recompute's transaction to add its mark. Of two nodes, the one that took it recomputes.
  const toldChanged = (await store.run(sql.clearToldStale, { project: projectId })) > 0;
  try {
    const findingsRecomputed = await store.transaction(async (tx) => {
      // Under the state row's lock: a fold or recompute elsewhere may have got here first.
      const state = await lockDriftState(tx, projectId);
      if (state.findings_computed_at != null && !toldChanged) return false;
      await recomputeFindings(tx, projectId, now);
      return true;
    });
    return { spans: folded.spans, errors: folded.errors, findingsRecomputed };
  } catch (error) {
    // The mark was taken but the findings not recomputed: put it back for the next refresh.
    if (toldChanged) await store.run(sql.markToldStale, { project: projectId, now }).catch(() => undefined);
    throw error;
  }
}
