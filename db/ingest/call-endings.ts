import type Database from "better-sqlite3";
import type { RowBatch } from "@/lib/ingest/rows";
import { HOUR_MS } from "../rollups/periods";
import { endingsOfCallsSql } from "../slos/call-ending-sql";
import { prepared } from "../store/sqlite-prepared";
import type { PgTx, Tx } from "../store/types";
import type { BatchAggregates, EndingRow } from "./aggregate";
import { queryNamed } from "./pg-named";
import type { StoredStep } from "./told-plan";

// `call_endings_hourly` is kept exact by recounting the calls a change touches: a call's ending can
// move when a later attempt arrives (or an earlier one, renumbering), when its told step changes
// (recovered or not) and when a rule re-codes it (declined or not). Their endings are read before
// and after the change from the stored rows, with the SLO reads' own definition
// (db/slos/call-ending-sql.ts), and the difference joins the batch's rollups.

/** A tool call: its run and its id. */
export interface CallRef {
  runId: string;
  callId: string;
}

const SQLITE = endingsOfCallsSql("sqlite", HOUR_MS);
const PG = endingsOfCallsSql("postgres", HOUR_MS);

/** A row of the endings read, as PostgreSQL returns it. */
export interface Counted {
  tool: string;
  hour: number | string;
  failed: number | string;
  declined: number | string;
  recovered: number | string;
  calls: number | string;
}

/** PostgreSQL's endings read: `$1` the project, `$2`/`$3` the calls' runs and ids. */
export const endingsPgSql = PG;

/** The endings read's rows as numbers. */
export const toEndingRows = (rows: readonly Counted[]): EndingRow[] =>
  rows.map((r) => ({ tool: r.tool, hour: Number(r.hour), failed: Number(r.failed), declined: Number(r.declined), recovered: Number(r.recovered), calls: Number(r.calls) }));

const callKey = (c: CallRef) => `${c.runId}\u0000${c.callId}`;

/** The distinct calls of a batch's spans, whether new or duplicates (a duplicate's ending reads the same before and after). */
export function batchCalls(batch: RowBatch): CallRef[] {
  const out = new Map<string, CallRef>();
  for (const { row } of batch.spans) {
    const c = { runId: row.runId, callId: row.callId };
    out.set(callKey(c), c);
  }
  return [...out.values()];
}

/** Every run a batch names (spans, final errors, run records): a superset of the runs its told steps lock. */
export function batchRuns(batch: RowBatch): string[] {
  const runs = new Set<string>();
  for (const { row } of batch.spans) runs.add(row.runId);
  for (const { row } of batch.toolErrors) runs.add(row.runId);
  for (const { row } of batch.runs) runs.add(row.runId);
  return [...runs];
}

/** SQLite: the given calls' endings as stored now (synchronous, for the ingest transaction). */
export function endingsSqlite(sqlite: Database.Database, projectId: string, calls: readonly CallRef[]): EndingRow[] {
  if (calls.length === 0) return [];
  return toEndingRows(prepared<Counted>(sqlite, SQLITE).all({ project: projectId, calls: JSON.stringify(calls.map((c) => [c.runId, c.callId])) }));
}

/** PostgreSQL: the given calls' endings as stored now. */
export async function endingsPg(tx: PgTx, projectId: string, calls: readonly CallRef[]): Promise<EndingRow[]> {
  if (calls.length === 0) return [];
  return toEndingRows(await queryNamed<Counted>(tx, PG, [projectId, calls.map((c) => c.runId), calls.map((c) => c.callId)]));
}

/** The given calls' endings as stored now, on either engine. */
export function endingsOf(tx: Tx, projectId: string, calls: readonly CallRef[]): Promise<EndingRow[]> | EndingRow[] {
  return tx.dialect === "sqlite" ? endingsSqlite(tx.sqlite, projectId, calls) : endingsPg(tx, projectId, calls);
}

/**
 * The calls outside `recounted` whose told steps changed whether they count as recovered, by their
 * state now: their spans did not change (only a batch's own calls' spans do), so their endings
 * before are their endings now with the failed ones' `recovered` flipped back.
 */
function flippedCalls(aggregates: BatchAggregates, recounted: readonly CallRef[]): { recovered: boolean; calls: CallRef[] }[] {
  const skip = new Set(recounted.map(callKey));
  const byState = [
    { recovered: true, calls: [] as CallRef[] },
    { recovered: false, calls: [] as CallRef[] },
  ];
  for (const c of aggregates.recoveryChanges.values()) if (!skip.has(callKey(c))) byState[c.recovered ? 0 : 1]!.calls.push(c);
  return byState.filter((s) => s.calls.length > 0);
}

/** What a flipped call's failed endings were: the same rows with `recovered` as it was. */
const flippedBack = (rows: readonly EndingRow[], wasRecovered: boolean): EndingRow[] =>
  rows.filter((r) => r.failed === 1).map((r) => ({ ...r, recovered: wasRecovered ? 1 : 0 }));

/**
 * Adds to `aggregates` the moves of the recounted calls' endings (`before` read before the change,
 * `now` after) and of the calls whose recovery alone changed (`flipped`, read after the change).
 */
function addMoves(aggregates: BatchAggregates, before: readonly EndingRow[], now: readonly EndingRow[], flipped: readonly { recovered: boolean; rows: EndingRow[] }[]): void {
  for (const r of before) aggregates.addEnding(r, -1);
  for (const r of now) aggregates.addEnding(r, 1);
  for (const f of flipped) {
    for (const r of flippedBack(f.rows, !f.recovered)) aggregates.addEnding(r, -1);
    for (const r of f.rows) if (r.failed === 1) aggregates.addEnding(r, 1);
  }
}

/** SQLite: after the change, the recounted calls' endings (read `before` it) and the flipped calls' move into `aggregates`. */
export function moveEndingsSqlite(sqlite: Database.Database, projectId: string, recounted: readonly CallRef[], before: readonly EndingRow[], aggregates: BatchAggregates): void {
  const flipped = flippedCalls(aggregates, recounted).map((f) => ({ recovered: f.recovered, rows: endingsSqlite(sqlite, projectId, f.calls) }));
  addMoves(aggregates, before, endingsSqlite(sqlite, projectId, recounted), flipped);
}

/** As `moveEndingsSqlite`, on either engine. */
export async function moveEndings(
  tx: Tx,
  projectId: string,
  recounted: readonly CallRef[],
  before: readonly EndingRow[],
  aggregates: BatchAggregates,
  /** The recounted calls' endings as they now stand, when already read (PostgreSQL's ingest: with its told read). */
  now: readonly EndingRow[] | null = null,
): Promise<void> {
  if (tx.dialect === "sqlite") return moveEndingsSqlite(tx.sqlite, projectId, recounted, before, aggregates);
  const flipped: { recovered: boolean; rows: EndingRow[] }[] = [];
  for (const f of flippedCalls(aggregates, recounted)) flipped.push({ recovered: f.recovered, rows: await endingsPg(tx, projectId, f.calls) });
  addMoves(aggregates, before, now ?? (await endingsPg(tx, projectId, recounted)), flipped);
}

const RECOVERED_STEPS = new Set(["recovered", "replaced"]);

/**
 * Notes in `aggregates` the calls whose told steps, as `upserts` rewrite the `stored` ones, change
 * whether the call counts as recovered (any of its steps recovered or replaced, as ENDING_KIND reads).
 */
export function noteRecoveryChanges(aggregates: BatchAggregates, stored: readonly StoredStep[], upserts: readonly StoredStep[]): void {
  if (upserts.length === 0) return;
  const steps = new Map<string, StoredStep>();
  for (const s of stored) steps.set(s.event_id, s);
  const before = recoveredCalls(steps.values());
  for (const s of upserts) steps.set(s.event_id, s);
  const after = recoveredCalls(steps.values());
  for (const s of upserts) {
    const c = { runId: s.run_id, callId: s.call_id };
    const key = callKey(c);
    if (before.has(key) !== after.has(key)) aggregates.recoveryChanges.set(key, { ...c, recovered: after.has(key) });
  }
}

function recoveredCalls(steps: Iterable<StoredStep>): Set<string> {
  const out = new Set<string>();
  for (const s of steps) if (RECOVERED_STEPS.has(s.step)) out.add(callKey({ runId: s.run_id, callId: s.call_id }));
  return out;
}
