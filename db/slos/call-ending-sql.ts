import type { Dialect } from "../store/types";

// What an SLO counts, written once: raw reads (db/slos/slo-counts.ts), the recount of touched calls
// that keeps `call_endings_hourly` exact (db/ingest/call-endings.ts) and the backfill migration (its
// SQL mirrors this text) all use it.

/** A failed attempt of `s`; spelt as the partial index `spans_project_failed_time_idx` is, so the planner can use it. */
export const FAILED = "s.outcome IS NOT NULL AND s.outcome NOT IN ('ok', 'cancelled')";

/**
 * The kind of ending of a span `s` that ends its call: `failed` is any outcome but ok and cancelled
 * (a cancelled call is the run stopping, not the tool failing); `recovered` says the model corrected
 * itself after the error it was told (the call's told step is recovered or replaced, docs/after-told.md).
 */
export const ENDING_KIND = `CASE WHEN ${FAILED} THEN 1 ELSE 0 END AS failed,
      CASE WHEN s.outcome = 'declined' THEN 1 ELSE 0 END AS declined,
      CASE WHEN ${FAILED}
        AND EXISTS (SELECT 1 FROM told_steps t WHERE t.project_id = s.project_id AND t.run_id = s.run_id AND t.call_id = s.call_id AND t.step IN ('recovered', 'replaced'))
        THEN 1 ELSE 0 END AS recovered`;

/**
 * Whether span `s` ends its call: the last attempt says how a call ended, a failing attempt the loop
 * retried whose next attempt has not arrived is not an end yet. Only failed attempts are looked up
 * further (a later attempt): a call is retried after a failure, never after an ok, and most attempts
 * are ok, so a scan does a few lookups rather than one per attempt.
 */
export const IS_ENDING = isEnding("");

/** `IS_ENDING` with an index hint on the later-attempt lookup (SQLite's `INDEXED BY …`). */
function isEnding(hint: string): string {
  return `(s.decision IS NULL OR s.decision <> 'retried')
      AND (s.outcome = 'ok' OR NOT EXISTS (SELECT 1 FROM tool_call_spans n ${hint} WHERE n.project_id = s.project_id AND n.run_id = s.run_id AND n.call_id = s.call_id AND n.attempt > s.attempt))`;
}

// Without statistics (a live SQLite node runs no ANALYZE) SQLite reads a call's spans through the
// (project, run) index, whose key is as selective on paper: every span of the run, for each call and
// again for each failed attempt's later-attempt lookup, so a batch's recount grew with its runs' length.
const BY_CALL = "INDEXED BY spans_project_call_idx";

/**
 * The ended calls among the given calls, counted per hour, tool and kind of ending: the rows of
 * `call_endings_hourly` they make. SQLite takes `@project` and `@calls` (a JSON array of [run, call]
 * pairs) and probes the (project, call) index once per call (`CROSS JOIN` keeps that order);
 * PostgreSQL takes `$1` and `$2`/`$3` (run and call arrays) and reads each call through a LATERAL
 * subquery kept apart by OFFSET 0, one index probe per call: left to itself, the planner of a
 * prepared statement may hash the calls and scan whole partitions for them.
 */
export function endingsOfCallsSql(dialect: Dialect, hourMs: number): string {
  const columns = `s.tool, s.started_at - (s.started_at % ${hourMs}) AS hour, ${ENDING_KIND}`;
  const ofCall = (project: string, hint = "") => `s.project_id = ${project} AND s.call_id = k.call_id AND s.run_id = k.run_id AND ${isEnding(hint)}`;
  const endings =
    dialect === "sqlite"
      ? `SELECT ${columns} FROM (SELECT value ->> 0 AS run_id, value ->> 1 AS call_id FROM json_each(@calls)) k CROSS JOIN tool_call_spans s ${BY_CALL} WHERE ${ofCall("@project", BY_CALL)}`
      : `SELECT e.* FROM unnest($2::text[], $3::text[]) AS k(run_id, call_id)
        CROSS JOIN LATERAL (SELECT ${columns} FROM tool_call_spans s WHERE ${ofCall("$1")} OFFSET 0) e`;
  return `SELECT e.tool, e.hour, e.failed, e.declined, e.recovered, count(*) AS calls FROM (${endings}) e
    GROUP BY e.tool, e.hour, e.failed, e.declined, e.recovered`;
}
