import type { ListRunsQuery, RunListItem, RunListResponse } from "@/lib/contracts/runs";
import type { Store } from "../client";

interface Row {
  run_id: string;
  attempts: number;
  retries: number;
  failed_attempts: number;
  declined: number;
  refused: number;
  errors: number;
  first_started_at: number;
  last_ended_at: number;
  record_id: string | null;
  agent: string | null;
  release: string | null;
  state: string | null;
  started_at: number | null;
  ended_at: number | null;
}

/** `<first_started_at>:<run_id>` of the last row of a page; ordering is (first_started_at, run_id) descending. */
function parseCursor(cursor: string): { at: number; runId: string } {
  const colon = cursor.indexOf(":");
  return { at: Number(cursor.slice(0, colon)), runId: cursor.slice(colon + 1) };
}

/**
 * Runs newest first from the ingest-maintained `run_stats` counters, so that runs whose record never
 * arrived still appear. A tool filter goes through `run_tools` (one row per run and tool), a code
 * filter through the partial span index (project, code, started_at) and the calls' final errors.
 */
export function listRuns(store: Store, q: ListRunsQuery): RunListResponse {
  const where: string[] = ["s.project_id = @project"];
  const params: Record<string, string | number> = { project: q.project, limit: q.limit + 1 };
  if (q.agent !== undefined) {
    where.push("r.agent = @agent");
    params.agent = q.agent;
  }
  if (q.release !== undefined) {
    where.push("r.release = @release");
    params.release = q.release;
  }
  if (q.state === "missing") where.push("r.run_id IS NULL");
  else if (q.state !== undefined) {
    where.push("r.state = @state");
    params.state = q.state;
  }
  // Spans of a run never start before the run's first attempt, so `from` also bounds the subqueries.
  const spanFrom = q.from !== undefined ? "AND started_at >= @from" : "";
  const errorFrom = q.from !== undefined ? "AND occurred_at >= @from" : "";
  if (q.from !== undefined) {
    where.push("s.first_started_at >= @from");
    params.from = q.from;
  }
  if (q.to !== undefined) {
    where.push("s.first_started_at < @to");
    params.to = q.to;
  }
  if (q.has_errors === "1") where.push("(s.failed_attempts > 0 OR s.errors > 0)");
  if (q.has_errors === "0") where.push("s.failed_attempts = 0 AND s.errors = 0");
  if (q.tool !== undefined) {
    where.push("s.run_id IN (SELECT run_id FROM run_tools WHERE project_id = @project AND tool = @tool)");
    params.tool = q.tool;
  }
  if (q.code !== undefined) {
    const toolAnd = q.tool !== undefined ? "AND tool = @tool" : "";
    where.push(
      `(s.run_id IN (SELECT run_id FROM tool_call_spans WHERE project_id = @project AND code = @code ${toolAnd} ${spanFrom})` +
        ` OR s.run_id IN (SELECT run_id FROM tool_errors WHERE project_id = @project AND code = @code ${toolAnd} ${errorFrom}))`,
    );
    params.code = q.code;
  }
  if (q.cursor !== undefined) {
    const c = parseCursor(q.cursor);
    where.push("(s.first_started_at < @cAt OR (s.first_started_at = @cAt AND s.run_id < @cRun))");
    params.cAt = c.at;
    params.cRun = c.runId;
  }
  const rows = store.sqlite
    .prepare(
      `SELECT s.run_id, s.attempts, s.retries, s.failed_attempts, s.declined, s.refused, s.errors,
         s.first_started_at, s.last_ended_at, r.record_id, r.agent, r.release, r.state, r.started_at, r.ended_at
       FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id
       WHERE ${where.join(" AND ")}
       ORDER BY s.first_started_at DESC, s.run_id DESC
       LIMIT @limit`,
    )
    .all(params) as Row[];
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const calls = distinctCalls(store, q.project, page.map((r) => r.run_id));
  return {
    runs: page.map((r) => ({ ...toItem(r), tool_calls: calls.get(r.run_id) ?? 0 })),
    next_cursor: rows.length > q.limit && last ? `${last.first_started_at}:${last.run_id}` : null,
  };
}

/**
 * Tool calls per run of one page, counted as distinct call ids: exact even when a call's first
 * attempt never arrived or a source carries no attempt numbers (run_stats only counts attempt 1).
 */
function distinctCalls(store: Store, project: string, runIds: string[]): Map<string, number> {
  if (runIds.length === 0) return new Map();
  const rows = store.sqlite
    .prepare(
      `SELECT run_id AS runId, count(DISTINCT call_id) AS n FROM tool_call_spans
       WHERE project_id = ? AND run_id IN (${runIds.map(() => "?").join(", ")}) GROUP BY run_id`,
    )
    .all(project, ...runIds) as { runId: string; n: number }[];
  return new Map(rows.map((r) => [r.runId, r.n]));
}

function toItem(r: Row): Omit<RunListItem, "tool_calls"> {
  // A stored record may still lack agent and start (a run end alone): those are unknown, not missing.
  const hasRecord = r.record_id !== null;
  const startedAt = hasRecord ? r.started_at : r.first_started_at;
  const endedAt = hasRecord ? r.ended_at : r.last_ended_at;
  return {
    run_id: r.run_id,
    has_run_record: hasRecord,
    agent: r.agent,
    release: r.release,
    state: r.state,
    started_at: startedAt,
    ended_at: endedAt,
    duration_ms: endedAt === null || startedAt === null ? null : endedAt - startedAt,
    attempts: r.attempts,
    retries: r.retries,
    failed_attempts: r.failed_attempts,
    errors: r.errors,
    declined: r.declined,
    refused: r.refused,
  };
}
