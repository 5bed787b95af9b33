import type { RowBatch } from "@/lib/ingest/rows";
import { bytesToHex } from "../schema/hex-bytes";
import { TOLD_RUN_LOCK } from "../store/locks";
import { prepared } from "../store/sqlite-prepared";
import type { PgTx, SqliteStore, Tx } from "../store/types";
import type { BatchAggregates, EndingRow } from "./aggregate";
import { endingsPgSql, noteRecoveryChanges, toEndingRows, type CallRef, type Counted } from "./call-endings";
import { escapeLiteral } from "pg";
import { pgTextArraySql } from "../store/pg-array-literal";
import { queryNamed } from "./pg-named";
import type { WrittenFlags } from "./tally";
import {
  planToldSteps,
  runsWithNewSurfacedErrors,
  touchedRuns,
  type ErrorFact,
  type RunFact,
  type SpanFact,
  type StoredStep,
  type ToldPlan,
} from "./told-plan";

// The next steps of surfaced errors (docs/after-told.md), kept at ingest in the batch's transaction:
// every run the batch touched that has surfaced errors is reclassified whole from its stored rows,
// and the changed steps are written with the count deltas that keep `told_step_counts` equal to
// them (added to the batch's rollups, so they are written with the others in one statement).
//
// Each engine has its own statements, as the rest of the ingest hot path: SQLite binds prepared
// statements in-process (a query per kind of row, a row at a time), PostgreSQL answers in three round
// trips whatever the batch (lock, read everything, write everything), as named prepared statements.

const STEP_COLUMNS = [
  "event_id", "run_id", "call_id", "tool", "code", "release", "shape", "step", "run_state", "calls",
  "next_call_id", "next_tool", "next_outcome", "next_code", "occurred_at",
] as const;
const SPAN_COLUMNS = ["run_id", "call_id", "tool", "attempt", "started_at", "ended_at", "outcome", "code", "args_hash", "after_error"] as const;
// args_hash is stored as bytes (db/schema/hex-bytes.ts): SQLite reads them as a Buffer, PostgreSQL's
// JSON rows carry them as hex of those bytes; both become the hash's own hex text again.
const pgSpanColumn = (c: (typeof SPAN_COLUMNS)[number]) => (c === "args_hash" ? "encode(s.args_hash, 'hex')" : `s.${c}`);
type StoredSpan = Omit<SpanFact, "args_hash"> & { args_hash: Uint8Array | string | null };
const spanFact = (s: StoredSpan): SpanFact => ({
  ...s,
  args_hash: s.args_hash === null ? null : bytesToHex(typeof s.args_hash === "string" ? Buffer.from(s.args_hash, "hex") : s.args_hash),
});
const ERROR_COLUMNS = ["event_id", "run_id", "call_id", "tool", "tool_version", "release", "code", "decision", "told", "occurred_at"] as const;
const RUN_COLUMNS = ["run_id", "state", "ended_at"] as const;

// A reclassified error keeps its identity and release; its code (and so its shape) moves when a rule
// change re-codes it (`replanToldRuns`, the re-classification job), and what came of it changes.
const ON_CONFLICT = `ON CONFLICT (project_id, event_id) DO UPDATE SET
    code = excluded.code, shape = excluded.shape, step = excluded.step, run_state = excluded.run_state, calls = excluded.calls, next_call_id = excluded.next_call_id,
    next_tool = excluded.next_tool, next_outcome = excluded.next_outcome, next_code = excluded.next_code, updated_at = excluded.updated_at`;

// The findings' model behaviour rule reads the counts: a change marks them stale (db/schema/told-stale.ts).
const MARK_STALE = "INSERT INTO told_stale (project_id, since) VALUES (@project, @now) ON CONFLICT (project_id) DO NOTHING";

/**
 * SQLite: the runs join as `k CROSS JOIN table`, so SQLite probes the table's (project, run) index
 * once per run rather than choosing a scan (see db/drift/statements.ts).
 */
const runsOf = (table: string, alias: string, columns: readonly string[], extra = "") =>
  `WITH k AS (SELECT value ->> 0 AS run_id FROM json_each(@runs))
   SELECT ${columns.map((c) => `${alias}.${c}`).join(", ")} FROM k CROSS JOIN ${table} ${alias}
   WHERE ${alias}.project_id = @project AND ${alias}.run_id = k.run_id${extra}`;

const SQLITE = {
  stored: runsOf("told_steps", "t", STEP_COLUMNS),
  spans: runsOf("tool_call_spans", "s", SPAN_COLUMNS),
  errors: runsOf("tool_errors", "e", ERROR_COLUMNS, " AND e.told IS NOT NULL"),
  runs: runsOf("runs", "r", RUN_COLUMNS),
  upsert: `INSERT INTO told_steps (project_id, ${STEP_COLUMNS.join(", ")}, updated_at)
    VALUES (@project, ${STEP_COLUMNS.map((c) => `@${c}`).join(", ")}, @now)
    ${ON_CONFLICT}`,
  markStale: MARK_STALE,
};

const PG = {
  /**
   * One transaction-scoped advisory lock per run (two-key form: class, hash of project and run),
   * taken in one order, so two nodes ingesting pieces of one run classify it one after the other,
   * the second seeing the first's rows. A hash collision only makes two runs take turns.
   */
  lockRuns: `SELECT count(pg_advisory_xact_lock(${TOLD_RUN_LOCK}, h)) AS n
    FROM (SELECT DISTINCT hashtext($1::text || '|' || r) AS h FROM unnest($2::text[]) AS r ORDER BY h OFFSET 0) AS keys`,
  /**
   * Everything the classification reads, in one statement: of the touched runs ($2), those with
   * stored steps or given a new surfaced error ($3), their stored steps (0), spans (1), final errors
   * with a told text (2) and run record (3), each row a JSON array in its kind's column order. The
   * runs needing it are a union, not `= ANY($3) OR EXISTS (…)`, which PostgreSQL turns into a hashed
   * subplan over every told step of the project; each kind is read per run through a LATERAL
   * subquery kept apart by OFFSET 0, one probe of the table's (project, run) index per run — left to
   * itself the planner may hash the runs and scan a whole partition for a handful of them.
   */
  read: `WITH need AS (
      SELECT r AS run_id FROM unnest($3::text[]) AS r
      UNION
      SELECT t.run_id FROM unnest($2::text[]) AS k(run_id) JOIN told_steps t ON t.project_id = $1 AND t.run_id = k.run_id
    )
    SELECT 0 AS kind, x.row FROM need CROSS JOIN LATERAL (
      SELECT json_build_array(${STEP_COLUMNS.map((c) => `t.${c}`).join(", ")}) AS row FROM told_steps t WHERE t.project_id = $1 AND t.run_id = need.run_id OFFSET 0
    ) AS x
    UNION ALL
    SELECT 1, x.row FROM need CROSS JOIN LATERAL (
      SELECT json_build_array(${SPAN_COLUMNS.map(pgSpanColumn).join(", ")}) AS row FROM tool_call_spans s WHERE s.project_id = $1 AND s.run_id = need.run_id OFFSET 0
    ) AS x
    UNION ALL
    SELECT 2, x.row FROM need CROSS JOIN LATERAL (
      SELECT json_build_array(${ERROR_COLUMNS.map((c) => `e.${c}`).join(", ")}) AS row FROM tool_errors e
      WHERE e.project_id = $1 AND e.run_id = need.run_id AND e.told IS NOT NULL OFFSET 0
    ) AS x
    UNION ALL
    SELECT 3, x.row FROM need CROSS JOIN LATERAL (
      SELECT json_build_array(${RUN_COLUMNS.map((c) => `r.${c}`).join(", ")}) AS row FROM runs r WHERE r.project_id = $1 AND r.run_id = need.run_id OFFSET 0
    ) AS x`,
  /** The changed steps, one array per column ($3…), and the stale mark when a count moved ($2). */
  write: `WITH written AS (
      INSERT INTO told_steps (project_id, ${STEP_COLUMNS.join(", ")}, updated_at)
      SELECT $1, u.*, $${STEP_COLUMNS.length + 3}::bigint FROM unnest(${STEP_COLUMNS.map((c, i) => `$${i + 3}::${c === "calls" || c === "occurred_at" ? "bigint" : "text"}[]`).join(", ")}) AS u
      ${ON_CONFLICT}
    )
    INSERT INTO told_stale (project_id, since) SELECT $1, $${STEP_COLUMNS.length + 3}::bigint WHERE $2::boolean
    ON CONFLICT (project_id) DO NOTHING`,
};

const keysParam = (runs: readonly string[]) => JSON.stringify(runs.map((r) => [r]));

/** The runs to classify: those with stored steps, and those given a new surfaced error by this batch. */
function needing(stored: readonly StoredStep[], fresh: ReadonlySet<string>): string[] {
  const runs = new Set(fresh);
  for (const s of stored) runs.add(s.run_id);
  return [...runs].sort();
}

/** The plan's count deltas, and the calls whose recovery it changed (their SLO endings move, db/ingest/call-endings.ts). */
function addDeltas(aggregates: BatchAggregates, stored: readonly StoredStep[], plan: ToldPlan): void {
  for (const d of plan.deltas) aggregates.rollups.toldSteps.add(d);
  noteRecoveryChanges(aggregates, stored, plan.upserts);
}

/** SQLite: the spans of the runs in `params`, their argument hashes as hex. */
const sqliteSpanFacts = (sqlite: SqliteStore["sqlite"], params: { project: string; runs: string }) =>
  prepared<StoredSpan>(sqlite, SQLITE.spans).all(params).map(spanFact);

/**
 * SQLite: reclassifies the batch's runs inside the ingest's synchronous transaction (one writer, so
 * nothing else can interleave). Adds the count deltas to `aggregates`; returns the rows it changed.
 */
export function applyToldStepsSqlite(store: SqliteStore, projectId: string, batch: RowBatch, written: WrittenFlags, aggregates: BatchAggregates, now: number): number {
  const touched = touchedRuns(batch, written);
  if (touched.length === 0) return 0;
  const stored = prepared<StoredStep>(store.sqlite, SQLITE.stored).all({ project: projectId, runs: keysParam(touched) });
  const runs = needing(stored, runsWithNewSurfacedErrors(batch, written));
  if (runs.length === 0) return 0;
  const params = { project: projectId, runs: keysParam(runs) };
  const plan = planToldSteps(
    projectId,
    stored,
    sqliteSpanFacts(store.sqlite, params),
    prepared<ErrorFact>(store.sqlite, SQLITE.errors).all(params),
    prepared<RunFact>(store.sqlite, SQLITE.runs).all(params),
  );
  if (plan.upserts.length === 0) return 0;
  writePlanSqlite(store.sqlite, projectId, plan, now);
  addDeltas(aggregates, stored, plan);
  return plan.upserts.length;
}

/** A JSON array read back as the object of its kind's columns. */
function fromArray<T>(columns: readonly string[], values: readonly unknown[]): T {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) out[columns[i]!] = values[i] ?? null;
  return out as T;
}

/** A run read back as rows of its four kinds. */
function splitRows(rows: readonly { kind: number; row: unknown[] }[]) {
  const stored: StoredStep[] = [];
  const spans: SpanFact[] = [];
  const errors: ErrorFact[] = [];
  const runs: RunFact[] = [];
  for (const { kind, row } of rows) {
    if (kind === 0) stored.push(fromArray(STEP_COLUMNS, row));
    else if (kind === 1) spans.push(spanFact(fromArray<StoredSpan>(SPAN_COLUMNS, row)));
    else if (kind === 2) errors.push(fromArray(ERROR_COLUMNS, row));
    else runs.push(fromArray(RUN_COLUMNS, row));
  }
  return { stored, spans, errors, runs };
}

async function writePlanPg(tx: PgTx, projectId: string, plan: ToldPlan, now: number): Promise<void> {
  const columns = STEP_COLUMNS.map((c) => plan.upserts.map((r) => r[c]));
  await queryNamed(tx, PG.write, [projectId, plan.deltas.length > 0, ...columns, now]);
}

function writePlanSqlite(sqlite: SqliteStore["sqlite"], projectId: string, plan: ToldPlan, now: number): void {
  const upsert = prepared(sqlite, SQLITE.upsert);
  for (const row of plan.upserts) upsert.run({ ...row, project: projectId, now });
  if (plan.deltas.length > 0) prepared(sqlite, SQLITE.markStale).run({ project: projectId, now });
}

/**
 * PostgreSQL: the same, in two round trips: one read of everything, one write of the changed steps
 * with the stale mark. Call after `lockToldRuns` of every run the batch names (a superset of those it
 * touches), which holds their advisory locks to the end of the transaction. The count deltas join the
 * batch's one rollup statement, which writes its rows in key order like every other rollup.
 */
export async function applyToldStepsPg(tx: PgTx, projectId: string, batch: RowBatch, written: WrittenFlags, aggregates: BatchAggregates, now: number): Promise<number> {
  return (await applyToldStepsReadingEndingsPg(tx, projectId, batch, written, aggregates, now, [])).changed;
}

/**
 * The told read with the given calls' endings riding along (kind 4, `$4`/`$5` their runs and ids):
 * read in the statement's snapshot, after the batch's rows were written.
 */
const READ_WITH_ENDINGS = `${PG.read}
    UNION ALL
    SELECT 4, json_build_array(e.tool, e.hour, e.failed, e.declined, e.recovered, e.calls) FROM (${endingsPgSql.replace(/\$([23])\b/g, (_, n: string) => `$${Number(n) + 2}`)}) AS e`;

/**
 * `applyToldStepsPg`, and the endings of `calls` as they stand once it is done, when its read could
 * carry them: the read is after the batch's rows, and when no step changes nothing is written after
 * it, so the endings it read are the endings now (one round trip fewer for the ingest). Null when
 * they still have to be read (no read, or steps were written).
 */
export async function applyToldStepsReadingEndingsPg(
  tx: PgTx,
  projectId: string,
  batch: RowBatch,
  written: WrittenFlags,
  aggregates: BatchAggregates,
  now: number,
  calls: readonly CallRef[],
): Promise<{ changed: number; endingsNow: EndingRow[] | null }> {
  const touched = touchedRuns(batch, written);
  if (touched.length === 0) return { changed: 0, endingsNow: null };
  const params: unknown[] = [projectId, touched, [...runsWithNewSurfacedErrors(batch, written)]];
  if (calls.length > 0) params.push(calls.map((c) => c.runId), calls.map((c) => c.callId));
  const all = await queryNamed<{ kind: number; row: unknown[] }>(tx, calls.length > 0 ? READ_WITH_ENDINGS : PG.read, params);
  const rows = calls.length > 0 ? all.filter((r) => r.kind !== 4) : all;
  const endings = calls.length > 0 ? endingsFromArrays(all) : [];
  if (rows.length === 0) return { changed: 0, endingsNow: endings };
  const { stored, spans, errors, runs } = splitRows(rows);
  const plan = planToldSteps(projectId, stored, spans, errors, runs);
  if (plan.upserts.length === 0) return { changed: 0, endingsNow: endings };
  await writePlanPg(tx, projectId, plan, now);
  addDeltas(aggregates, stored, plan);
  return { changed: plan.upserts.length, endingsNow: null };
}

/** The kind-4 rows of the told read: endings, as JSON arrays in the endings read's column order. */
function endingsFromArrays(rows: readonly { kind: number; row: unknown[] }[]): EndingRow[] {
  const out: Counted[] = [];
  for (const { kind, row } of rows) {
    if (kind === 4) out.push({ tool: row[0] as string, hour: row[1] as number, failed: row[2] as number, declined: row[3] as number, recovered: row[4] as number, calls: row[5] as number });
  }
  return toEndingRows(out);
}

/**
 * Takes the told-step locks of the given runs (PostgreSQL; SQLite has one writer), in the order
 * ingest takes them: the re-classification job takes them before it re-codes a run's final errors,
 * so ingest and the job classify a run's told steps one after the other.
 */
export async function lockToldRuns(tx: Tx, projectId: string, runIds: readonly string[]): Promise<void> {
  if (tx.dialect === "postgres" && runIds.length > 0) await queryNamed(tx, PG.lockRuns, [projectId, [...new Set(runIds)].sort()]);
}

/**
 * `lockToldRuns` as a statement with its values written in (null when there are no runs), for the
 * ingest to send with its `BEGIN` (`TransactionOptions.pgFirst`), one round trip fewer per batch.
 * Each statement of a multi-statement query takes its own snapshot, so the reads after it still see
 * what the lock holders committed.
 */
export function toldRunsLockSql(projectId: string, runIds: readonly string[]): string | null {
  if (runIds.length === 0) return null;
  const runs = pgTextArraySql([...new Set(runIds)].sort());
  // Replaced by functions: a `$&` in an id is text, not a replacement pattern.
  return PG.lockRuns.replace("$1::text", () => `${escapeLiteral(projectId)}::text`).replace("$2::text[]", () => `${runs}::text[]`);
}

/**
 * Reclassifies the told steps of the given runs from their stored rows as they now stand (after a
 * re-classification re-coded their spans and final errors), on either engine: changed steps are
 * written, and the count deltas that keep `told_step_counts` equal to them are added to
 * `aggregates`. Call after `lockToldRuns` on the same runs. Returns the rows it changed.
 */
export async function replanToldRuns(tx: Tx, projectId: string, runIds: readonly string[], aggregates: BatchAggregates, now: number): Promise<number> {
  const runs = [...new Set(runIds)].sort();
  if (runs.length === 0) return 0;
  let plan: ToldPlan;
  let stored: StoredStep[];
  if (tx.dialect === "sqlite") {
    const params = { project: projectId, runs: keysParam(runs) };
    stored = prepared<StoredStep>(tx.sqlite, SQLITE.stored).all(params);
    plan = planToldSteps(
      projectId,
      stored,
      sqliteSpanFacts(tx.sqlite, params),
      prepared<ErrorFact>(tx.sqlite, SQLITE.errors).all(params),
      prepared<RunFact>(tx.sqlite, SQLITE.runs).all(params),
    );
    if (plan.upserts.length > 0) writePlanSqlite(tx.sqlite, projectId, plan, now);
  } else {
    const read = splitRows(await queryNamed<{ kind: number; row: unknown[] }>(tx, PG.read, [projectId, runs, runs]));
    stored = read.stored;
    plan = planToldSteps(projectId, stored, read.spans, read.errors, read.runs);
    if (plan.upserts.length > 0) await writePlanPg(tx, projectId, plan, now);
  }
  addDeltas(aggregates, stored, plan);
  return plan.upserts.length;
}
