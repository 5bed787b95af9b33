import { SEARCH_LIMIT_PER_KIND, type SearchAnswer, type SearchHit, type SearchKind } from "@/lib/contracts/search";
import type { Executor } from "../client";

// Above every character a name can hold: `[q, q + TOP)` is the range of strings starting with q.
// Both engines compare text by code point here (SQLite's BINARY, PostgreSQL's C collation).
const TOP = "\u{10FFFF}";
const RELEASE_LOOKBACK_MS = 400 * 86_400_000;

/**
 * Distinct values of one indexed column starting with a prefix, found by seeking the index once per
 * value (a recursive "next larger value" walk) instead of reading every span of a busy tool. The
 * LIMIT is outside the recursion (PostgreSQL has none inside it): both engines produce the walk's
 * rows lazily, so it still stops after `@limit` seeks.
 */
const walk = (table: string, column: string) => `
  hit(v) AS (
    SELECT (SELECT min(${column}) FROM ${table} WHERE project_id = @project AND ${column} >= @lo AND ${column} < @hi)
    UNION ALL
    SELECT (SELECT min(${column}) FROM ${table} WHERE project_id = @project AND ${column} > hit.v AND ${column} < @hi)
    FROM hit WHERE hit.v IS NOT NULL
  )`;

const skipScan = (table: string, column: string) => `WITH RECURSIVE ${walk(table, column)} SELECT v FROM hit WHERE v IS NOT NULL LIMIT @limit`;

/**
 * Call ids by prefix, each with the run that holds it and its first attempt's span. The walk bounds
 * the ids; the join then reads only their spans, which are one call's few attempts (or a few calls,
 * where a source reuses short ids across runs: each (call, run) pair is its own hit). CROSS JOIN
 * keeps SQLite from reading the project's spans first and probing the ids for each (its planner
 * otherwise does, having no statistics); PostgreSQL orders the join by its estimates. An attempt
 * number orders attempts; unnumbered ones go after numbered ones (the CASE, because the engines
 * place NULLs at opposite ends), then by start and span id, so both engines pick the same span.
 */
const CALL_SQL = `
  WITH RECURSIVE ${walk("tool_call_spans", "call_id")},
  ids AS (SELECT v FROM hit WHERE v IS NOT NULL LIMIT @limit)
  SELECT v, "runId", "spanId" FROM (
    SELECT s.call_id AS v, s.run_id AS "runId", s.span_id AS "spanId",
      row_number() OVER (
        PARTITION BY s.call_id, s.run_id
        ORDER BY CASE WHEN s.attempt IS NULL THEN 1 ELSE 0 END, s.attempt, s.started_at, s.span_id
      ) AS n
    FROM ids CROSS JOIN tool_call_spans s WHERE s.project_id = @project AND s.call_id = ids.v
  ) firsts WHERE n = 1 ORDER BY v, "runId" LIMIT @limit`;

const SQL: Record<SearchKind, string> = {
  // run_stats has a row per run that sent spans; its primary key is (project_id, run_id).
  run: "SELECT run_id AS v FROM run_stats WHERE project_id = @project AND run_id >= @lo AND run_id < @hi ORDER BY run_id LIMIT @limit",
  call: CALL_SQL,
  tool: skipScan("tool_call_spans", "tool"),
  code: skipScan("tool_call_spans", "code"),
  // Releases come from the six-hourly rollup's (project_id, hour) key range: bounded by the lookback.
  release:
    "SELECT DISTINCT release AS v FROM span_rollups_6h WHERE project_id = @project AND hour >= @since AND release >= @lo AND release < @hi ORDER BY v LIMIT @limit",
};

type Row = { v: string; runId?: string; spanId?: string };

/** Run ids, call ids, tools, codes and releases of a project starting with `q`, a few of each kind. */
export async function searchProject(db: Executor, projectId: string, q: string, now: number): Promise<SearchAnswer> {
  const kinds = Object.keys(SQL) as SearchKind[];
  const answers = await Promise.all(
    kinds.map((kind) => {
      const args: Record<string, string | number> = { project: projectId, lo: q, hi: q + TOP, limit: SEARCH_LIMIT_PER_KIND + 1 };
      if (kind === "release") args.since = now - RELEASE_LOOKBACK_MS;
      return db.all<Row>(SQL[kind], args);
    }),
  );
  const hits: SearchHit[] = [];
  let truncated = false;
  kinds.forEach((kind, i) => {
    const rows = answers[i]!;
    if (rows.length > SEARCH_LIMIT_PER_KIND) truncated = true;
    for (const r of rows.slice(0, SEARCH_LIMIT_PER_KIND)) {
      if (r.v === "") continue;
      hits.push(kind === "call" ? { kind, value: r.v, runId: r.runId!, spanId: r.spanId! } : { kind, value: r.v });
    }
  });
  return { project: projectId, q, hits, truncated };
}

/** The SQL of each search kind, for query-plan checks in tests. */
export const SEARCH_SQL = SQL;

/** Whether any span of the project names this tool (one index seek). */
export async function toolExists(db: Executor, projectId: string, tool: string): Promise<boolean> {
  return (await db.get<{ one: number }>("SELECT 1 AS one FROM tool_call_spans WHERE project_id = ? AND tool = ? LIMIT 1", [projectId, tool])) !== undefined;
}

/**
 * Whether any span of the project carries this code, or drift's accumulators (kept beyond raw
 * retention) still have it: a code every stored call lost to a rule change or a pack switch keeps
 * its page, with its history by release and the change that moved it (an index seek each).
 */
export async function codeExists(db: Executor, projectId: string, code: string): Promise<boolean> {
  if ((await db.get<{ one: number }>("SELECT 1 AS one FROM tool_call_spans WHERE project_id = ? AND code = ? LIMIT 1", [projectId, code])) !== undefined) return true;
  return (await db.get<{ one: number }>("SELECT 1 AS one FROM drift_signatures WHERE project_id = ? AND code = ? LIMIT 1", [projectId, code])) !== undefined;
}
