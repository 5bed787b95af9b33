import type Database from "better-sqlite3";
import { getTableName } from "drizzle-orm";
import type { RowBatch } from "@/lib/ingest/rows";
import { attemptCounts } from "../schema/attempt-counts";
import type { PgTx } from "../store/types";
import type { BatchAggregates } from "./aggregate";
import { pgTextArraySql } from "../store/pg-array-literal";
import { queryNamed } from "./pg-named";
import { derivedCalls, planRenumber, RENUMBERED_SOURCE, type AttemptMove, type StoredAttempt } from "./renumber-plan";

const STORED_COLUMNS = `s.span_id AS "spanId", s.run_id AS "runId", s.call_id AS "callId", s.started_at AS "startedAt", s.started_sub_ns AS "startedSubNs", s.attempt, s.tool,
  s.code, s.outcome, s.error_class AS "errorClass", em.release, em.service, em.environment, s.derived`;
// Only spans whose number Faultline derived take part: a number the source sent is never changed.
const DERIVED = `em.id = s.emitter_id AND em.source = '${RENUMBERED_SOURCE}' AND s.attempt IS NOT NULL AND s.derived LIKE '%attempt%'`;

// A move can leave an attempt number's counter at zero; a recount would have no such row.
const dropEmptyAttemptCounts = (placeholder: string) =>
  attemptCounts.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = ${placeholder} AND spans = 0`);

/** Applies the moves to the rollups and drops attempt counters a move emptied. */
function moveCounters(aggregates: BatchAggregates, moves: readonly AttemptMove[]): void {
  for (const m of moves) aggregates.moveAttempt(m.row, m.from, m.to);
}

const sqliteCache = new WeakMap<Database.Database, { select: Database.Statement; update: Database.Statement; prune: Database.Statement[] }>();

function sqliteStatements(sqlite: Database.Database) {
  let st = sqliteCache.get(sqlite);
  if (!st) {
    st = {
      select: sqlite.prepare(`SELECT ${STORED_COLUMNS} FROM tool_call_spans s CROSS JOIN span_emitters em WHERE s.project_id = ? AND s.call_id = ? AND s.run_id = ? AND ${DERIVED}`),
      update: sqlite.prepare("UPDATE tool_call_spans SET attempt = ? WHERE project_id = ? AND span_id = ?"),
      prune: dropEmptyAttemptCounts("?").map((sql) => sqlite.prepare(sql)),
    };
    sqliteCache.set(sqlite, st);
  }
  return st;
}

/**
 * SQLite, inside the ingest transaction and before the batch's spans are inserted: numbers the
 * batch's derived attempts after (or among) the stored ones of the same calls, and renumbers stored
 * spans an earlier-starting new sibling displaced. Returns the moves, whose rollup deltas are applied
 * with `applyMovesSqlite` once the batch is tallied.
 */
export function renumberSqlite(sqlite: Database.Database, projectId: string, batch: RowBatch): AttemptMove[] {
  const calls = derivedCalls(batch);
  if (calls.length === 0) return [];
  const st = sqliteStatements(sqlite);
  const stored = calls.flatMap((c) => st.select.all(projectId, c.callId, c.runId) as StoredAttempt[]);
  const moves = planRenumber(batch, stored);
  for (const m of moves) st.update.run(m.to, projectId, m.row.spanId);
  return moves;
}

/** SQLite: the moves' rollup deltas, then (after the rollups are written) the emptied counters. */
export function applyMovesSqlite(sqlite: Database.Database, projectId: string, moves: readonly AttemptMove[], aggregates: BatchAggregates, writeRollups: () => void): void {
  moveCounters(aggregates, moves);
  writeRollups();
  if (moves.length > 0) for (const prune of sqliteStatements(sqlite).prune) prune.run(projectId);
}

/**
 * PostgreSQL: the advisory lock of each call whose attempts `renumberPg` numbers, taken in one order,
 * as one statement with its values written in (null when there are none): the ingest sends it with its
 * `BEGIN`, after the told-run locks, one round trip fewer. It makes concurrent batches (several nodes)
 * holding attempts of one call number them one after the other.
 */
export function callLocksSql(projectId: string, batch: RowBatch): string | null {
  const calls = derivedCalls(batch);
  if (calls.length === 0) return null;
  const keys = pgTextArraySql(calls.map((c) => `${projectId}|${c.runId}|${c.callId}`));
  return `SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(x, 7) AS k FROM unnest(${keys}::text[]) AS x ORDER BY k) AS locks`;
}

/** PostgreSQL: as `renumberSqlite`. Call with the locks of `callLocksSql` held. */
export async function renumberPg(tx: PgTx, projectId: string, batch: RowBatch): Promise<AttemptMove[]> {
  const calls = derivedCalls(batch);
  if (calls.length === 0) return [];
  // A lookup per call (LATERAL, kept apart by OFFSET 0 so it is not flattened into a join), so each
  // probes the (project, call) index whatever the planner thinks of the table: on a new or fast-growing
  // table (statistics from when it was nearly empty) the join was planned as a scan of all the
  // project's spans with the call as a filter, 45-90 ms of database CPU a batch.
  const stored = await queryNamed<StoredAttempt>(
    tx,
    `SELECT s.* FROM unnest($2::text[], $3::text[]) AS c(run, call)
     CROSS JOIN LATERAL (SELECT ${STORED_COLUMNS} FROM tool_call_spans s CROSS JOIN span_emitters em WHERE s.project_id = $1 AND s.call_id = c.call AND s.run_id = c.run AND ${DERIVED} OFFSET 0) AS s`,
    [projectId, calls.map((c) => c.runId), calls.map((c) => c.callId)],
  );
  const moves = planRenumber(batch, stored);
  if (moves.length > 0) {
    await queryNamed(
      tx,
      `UPDATE tool_call_spans SET attempt = m.attempt FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS m(span_id, started_at, attempt)
       WHERE tool_call_spans.project_id = $1 AND tool_call_spans.span_id = m.span_id AND tool_call_spans.started_at = m.started_at`,
      [projectId, moves.map((m) => m.row.spanId), moves.map((m) => m.row.startedAt), moves.map((m) => m.to)],
    );
  }
  return moves;
}

/** PostgreSQL: the moves' rollup deltas, then (after the rollups are written) the emptied counters. */
export async function applyMovesPg(tx: PgTx, projectId: string, moves: readonly AttemptMove[], aggregates: BatchAggregates, writeRollups: () => Promise<void>): Promise<void> {
  moveCounters(aggregates, moves);
  await writeRollups();
  if (moves.length > 0) for (const sql of dropEmptyAttemptCounts("$1")) await queryNamed(tx, sql, [projectId]);
}
