import type { RowBatch } from "@/lib/ingest/rows";
import { writeRollupsPg } from "../rollups/write-rollup-pg";
import { INGEST_BARRIER_LOCK } from "../store/locks";
import type { PgStore, PgTx } from "../store/types";
import { pgTx, queryNamed } from "./pg-named";
import { errorFactInsert, errorFactRow, factInsert, factRow } from "./fact-rows";
import { applyMovesPg, callLocksSql, renumberPg } from "./renumber-attempts";
import { runUpsert, spanInsert, toolErrorInsert } from "./statements";
import { tally, writtenFlags, type WriteResult } from "./tally";
import { applyToldStepsReadingEndingsPg, toldRunsLockSql } from "./told-steps";
import { batchCalls, batchRuns, endingsPg, endingsPgSql, moveEndings, toEndingRows, type CallRef, type Counted } from "./call-endings";
import type { EndingRow } from "./aggregate";
import { renumbersAny } from "./renumber-plan";
import { issueOrGroupCodeOf } from "@/lib/triage/group-issue";
import { applyIssuesPg } from "../issues/ingest-issues-pg";
import { emitterIdsPg, LearnedEmitters } from "./span-emitters";

type Context = { projectId: string; receivedAt: number };

const SPAN_FACTS = { insert: factInsert, of: factRow };
const ERROR_FACTS = { insert: errorFactInsert, of: errorFactRow };

// Taken with BEGIN, in its round trip, before the batch's run locks.
const BARRIER = `SELECT pg_advisory_xact_lock_shared(${INGEST_BARRIER_LOCK})`;

interface MultiRowInsert<Row> {
  pgSql: string;
  pgSqlWhere: (offset: number, where: string) => string;
  pgWidth: number;
  columns: (context: Context, rows: readonly Row[]) => unknown[];
}

/** The facts rows kept beside a raw table's rows: their insert and the facts row of a raw row (null: none). */
interface Facts<Row, Fact> {
  insert: { pgSqlWhere: (offset: number, where: string) => string; columns: (context: { projectId: string }, rows: readonly Fact[]) => unknown[] };
  of: (row: Row) => Fact | null;
}

const statementSql = new Map<string, string>();

/**
 * A raw insert, with the insert of the facts of the rows it wrote when `facts` is given and the
 * batch's call endings as they stand before it when `endings` is, in one statement:
 * - the facts step (a data-modifying CTE) is given the facts of every row sent and keeps those whose
 *   record id the raw insert returned, which is what a second statement after it did;
 * - the endings are read by a CTE, which sees the statement's snapshot, taken before the insert: what
 *   a statement of its own before the insert read (the batch's call locks, taken with `BEGIN`, keep
 *   concurrent batches from moving those calls in between). Their rows come after the written ids,
 *   told apart by a null id.
 * Each is one round trip fewer.
 */
function insertSql(insert: MultiRowInsert<unknown>, column: string, facts: Facts<unknown, unknown> | null, endingsAt: number | null): string {
  const key = `${facts === null ? 0 : 1}${endingsAt ?? ""}:${insert.pgSql}`;
  let sql = statementSql.get(key);
  if (sql === undefined) {
    const ctes: string[] = [];
    if (endingsAt !== null) ctes.push(`before AS (${endingsPgSql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + endingsAt}`)})`);
    ctes.push(`written AS (${insert.pgSql})`);
    if (facts !== null) ctes.push(`facts AS (${facts.insert.pgSqlWhere(insert.pgWidth, `u.${column} IN (SELECT ${column} FROM written)`)})`);
    const endings = endingsAt === null ? "" : " UNION ALL SELECT NULL, tool, hour, failed, declined, recovered, calls FROM before";
    const blanks = endingsAt === null ? "" : ", NULL AS tool, NULL AS hour, NULL AS failed, NULL AS declined, NULL AS recovered, NULL AS calls";
    sql = ctes.length === 1 && endingsAt === null ? insert.pgSql : `WITH ${ctes.join(", ")} SELECT ${column}${blanks} FROM written${endings}`;
    statementSql.set(key, sql);
  }
  return sql;
}

/** The calls whose endings as they stand before the insert ride with it (`insertSql`). */
interface EndingsBefore {
  projectId: string;
  calls: readonly CallRef[];
}

/**
 * Writes the given rows (positions into `entries`, one per record id) in one statement, with their
 * facts rows when `facts` is given, and marks in `flags` those it wrote: PostgreSQL returns the id of
 * every row it wrote. The statement itself writes in record id order (see rowInsert), so concurrent
 * batches never deadlock. With `endings`, the statement also reads those calls' endings before the
 * insert and answers them (null when there was no statement to carry them: the caller reads them).
 */
async function writeOnce<Row, Fact>(
  tx: PgTx,
  insert: MultiRowInsert<Row>,
  column: string,
  context: Context,
  entries: readonly { row: Row }[],
  positions: readonly { id: string; at: number }[],
  flags: Uint8Array,
  facts?: Facts<Row, Fact>,
  endings?: EndingsBefore,
): Promise<EndingRow[] | null> {
  if (positions.length === 0) return null;
  const rows = positions.map((p) => entries[p.at]!.row);
  let params = insert.columns(context, rows);
  let withFacts: Facts<Row, Fact> | null = null;
  if (facts) {
    const factRows: Fact[] = [];
    for (const row of rows) {
      const fact = facts.of(row);
      if (fact !== null) factRows.push(fact);
    }
    if (factRows.length > 0) {
      withFacts = facts;
      params = [...params, ...facts.insert.columns(context, factRows)];
    }
  }
  const endingsAt = endings !== undefined && endings.calls.length > 0 ? params.length : null;
  if (endings !== undefined && endingsAt !== null) params.push(endings.projectId, endings.calls.map((c) => c.runId), endings.calls.map((c) => c.callId));
  const sql = insertSql(insert as MultiRowInsert<unknown>, column, withFacts as Facts<unknown, unknown> | null, endingsAt);
  const returned = await queryNamed<Record<string, string | null> & Partial<Counted>>(tx, sql, params);
  const written = new Set<string>();
  const before: Counted[] = [];
  for (const r of returned) {
    const id = r[column];
    if (id !== null && id !== undefined) written.add(id);
    else before.push(r as Counted);
  }
  for (const p of positions) if (written.has(p.id)) flags[p.at] = 1;
  return endings === undefined ? null : toEndingRows(before);
}

/** A record id repeated within a batch: the first is written, the rest are duplicates (as on SQLite). */
function firstOccurrences<Row>(entries: readonly { row: Row }[], id: (row: Row) => string): { id: string; at: number }[] {
  const seen = new Set<string>();
  const out: { id: string; at: number }[] = [];
  for (let at = 0; at < entries.length; at++) {
    const key = id(entries[at]!.row);
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ id: key, at });
    }
  }
  return out;
}

/**
 * The conflict target of spans on PostgreSQL includes `started_at` (the partition key), so a span
 * whose time Faultline derived from the arrival of its request (a kit `ToolCallSpan` without `at`)
 * would be stored again by a later re-delivery, at a new time, under the same content-derived id.
 * Such spans are looked up by id first, across partitions; one already stored is a duplicate.
 */
async function withoutStoredTimeless(
  tx: PgTx,
  projectId: string,
  spans: RowBatch["spans"],
  positions: { id: string; at: number }[],
): Promise<{ id: string; at: number }[]> {
  const timeless = positions.filter((p) => spans[p.at]!.row.derived?.split(",").includes("started_at"));
  if (timeless.length === 0) return positions;
  const stored = await queryNamed<{ span_id: string }>(
    tx,
    "SELECT span_id FROM tool_call_spans WHERE project_id = $1 AND span_id = ANY($2::text[])",
    [projectId, timeless.map((p) => p.id)],
  );
  const known = new Set(stored.map((r) => r.span_id));
  return known.size === 0 ? positions : positions.filter((p) => !known.has(p.id));
}

/**
 * Run records merge into one row per run, later records over earlier ones. One statement may not
 * update a row twice, so the k-th record of each run goes into the k-th statement: records of one
 * run are applied in batch order, each counted as SQLite counts it (a replayed record changes nothing).
 */
function runRounds(entries: RowBatch["runs"]): { id: string; at: number }[][] {
  const seen = new Map<string, number>();
  const rounds: { id: string; at: number }[][] = [];
  for (let at = 0; at < entries.length; at++) {
    const id = entries[at]!.row.runId;
    const k = seen.get(id) ?? 0;
    seen.set(id, k + 1);
    (rounds[k] ??= []).push({ id, at });
  }
  return rounds;
}

/**
 * PostgreSQL: the batch in one transaction, a handful of round trips whatever its size: one
 * multi-row statement per raw table (two or more for runs recorded twice in the batch) and one for
 * every rollup table. Every transaction takes its row locks in one order (raw tables, then the
 * rollup tables in one fixed order; rows sorted by key within each), which is what keeps concurrent
 * batches on several nodes free of deadlocks. The shared barrier lock, taken before any `pk` is
 * handed out, lets a drift fold wait for ingest transactions in flight.
 */
export function writeRowsPg(store: PgStore, projectId: string, batch: RowBatch, now: number): Promise<WriteResult> {
  // The SLO endings of the batch's calls as they stand are read under the locks of their runs, taken
  // with BEGIN for every run of the batch, before the per-call locks (also taken there), in the order the
  // told steps take them.
  const pgFirst = [BARRIER, toldRunsLockSql(projectId, batchRuns(batch)), callLocksSql(projectId, batch)].filter((sql) => sql !== null).join("; ");
  // Everything else is computed inside the callback: a transaction that loses a deadlock anyway is run again.
  let learned = new LearnedEmitters(store);
  const committed = store.transaction(async (open) => {
    const tx = pgTx(open);
    learned = new LearnedEmitters(store);
    const spans = (await emitterIdsPg(tx, store, projectId, batch.spans, learned)).map((row) => ({ row }));
    const context = { projectId, receivedAt: now };
    const written = writtenFlags(batch);
    const calls = batchCalls(batch);
    // The endings before the change ride with the span insert, unless renumbering may move stored
    // attempts first: then they are read before it.
    const early = renumbersAny(batch) ? await endingsPg(tx, projectId, calls) : null;
    const moves = await renumberPg(tx, projectId, batch);
    const spanPositions = await withoutStoredTimeless(tx, projectId, batch.spans, firstOccurrences(batch.spans, (r) => r.spanId));
    const carried = await writeOnce(tx, spanInsert, "span_id", context, spans, spanPositions, written.spans, SPAN_FACTS, early === null ? { projectId, calls } : undefined);
    const endingsBefore = early ?? carried ?? (await endingsPg(tx, projectId, calls));
    await writeOnce(tx, toolErrorInsert, "event_id", context, batch.toolErrors, firstOccurrences(batch.toolErrors, (r) => r.eventId), written.toolErrors, ERROR_FACTS);
    for (const round of runRounds(batch.runs)) await writeOnce(tx, runUpsert, "run_id", context, batch.runs, round, written.runs);
    const { result, aggregates } = tally(projectId, batch, written);
    // The endings after the change ride with the told read when nothing is written after it.
    const { endingsNow } = await applyToldStepsReadingEndingsPg(tx, projectId, batch, written, aggregates, now, calls);
    await moveEndings(tx, projectId, calls, endingsBefore, aggregates, endingsNow);
    await applyMovesPg(tx, projectId, moves, aggregates, () => writeRollupsPg(tx, aggregates.all()));
    await applyIssuesPg(tx, projectId, batch, written, now, issueOrGroupCodeOf);
    return result;
  }, { pgFirst });
  return committed.then((result) => {
    learned.publish();
    return result;
  });
}
