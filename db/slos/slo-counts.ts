import type { Executor } from "../client";
import { jsonRows } from "../store/dialect-sql";
import type { SloCallGroup } from "@/lib/slo/burn";
import { coveredTools } from "@/lib/slo/tool-patterns";
import { ENDING_KIND, FAILED, IS_ENDING } from "./call-ending-sql";

const SIX_HOURS = 6 * 3_600_000;

/** Which calls an SLO reads: its tools (names already resolved from its patterns) and a time range. */
export interface SloScope {
  project: string;
  tools: readonly string[];
  from: number;
  to: number;
}

/**
 * `s.tool` among the scope's tools. PostgreSQL gets them as one array (an InitPlan), so the tool is
 * a key of the (project, tool, time) index scans: as an `IN (subquery)` it is a join after the scan,
 * which then reads every tool's spans in the range, each failed one probing every partition for a
 * later attempt, and the plan's cost set off JIT compilation that took seconds on its own.
 */
function toolIn(db: Executor): string {
  return db.dialect === "postgres"
    ? `s.tool = ANY (ARRAY(SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@tools")}))`
    : `s.tool IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@tools")})`;
}

/**
 * One row per call that has ended, at its last attempt (db/slos/call-ending-sql.ts: what ends a
 * call and how). Times are the last attempt's start. `failedOnly` reads only calls that ended
 * failed, through the partial index of failed attempts (SQLite is told to: it would pick the
 * (project, tool, time) index and read every call; PostgreSQL's planner picks it unaided).
 */
function finalCalls(db: Executor, failedOnly = false): string {
  const hint = failedOnly && db.dialect === "sqlite" ? "INDEXED BY spans_project_failed_time_idx" : "";
  return `SELECT s.run_id, s.call_id, s.tool, s.code, s.started_at, COALESCE(em.release, em.tool_version) AS release, em.environment,
      ${ENDING_KIND}
    FROM tool_call_spans s ${hint} CROSS JOIN span_emitters em
    WHERE s.project_id = @project AND em.id = s.emitter_id AND s.started_at >= @from AND s.started_at < @to
      AND ${toolIn(db)}${failedOnly ? ` AND ${FAILED}` : ""}
      AND ${IS_ENDING}`;
}

export const scopeParams = (q: SloScope) => ({ project: q.project, from: q.from, to: q.to, tools: JSON.stringify(q.tools.map((t) => [t])) });

/** The project's tools seen since `from` (six-hourly rollup: cheap), resolved against an SLO's names and globs. */
export async function sloToolsSince(db: Executor, project: string, patterns: readonly string[], from: number): Promise<string[]> {
  if (patterns.every((p) => !p.includes("*"))) return coveredTools(patterns, []);
  const rows = await db.all<{ tool: string }>("SELECT DISTINCT tool FROM span_rollups_6h WHERE project_id = ? AND hour >= ? ORDER BY tool", [project, from - SIX_HOURS]);
  return coveredTools(patterns, rows.map((r) => r.tool));
}

interface GroupRow {
  bucket: number | string;
  failed: number | string;
  declined: number | string;
  recovered: number | string;
  calls: number | string;
}

/** The scope's ended calls per bucket of `bucketMs` (aligned to the epoch) and kind of ending, counted from raw spans. */
export async function sloCallBuckets(db: Executor, q: SloScope & { bucketMs: number }): Promise<{ at: number; groups: SloCallGroup[] }[]> {
  if (q.tools.length === 0) return [];
  const rows = await db.all<GroupRow>(
    `SELECT c.started_at - (c.started_at % @bucketMs) AS bucket, c.failed, c.declined, c.recovered, count(*) AS calls
     FROM (${finalCalls(db)}) c
     GROUP BY c.started_at - (c.started_at % @bucketMs), c.failed, c.declined, c.recovered
     ORDER BY bucket, c.failed, c.declined, c.recovered`,
    { ...scopeParams(q), bucketMs: q.bucketMs },
  );
  const out = new Map<number, SloCallGroup[]>();
  for (const r of rows) {
    const at = Number(r.bucket);
    const group = { failed: Number(r.failed) === 1, declined: Number(r.declined) === 1, recovered: Number(r.recovered) === 1, calls: Number(r.calls) };
    (out.get(at) ?? out.set(at, []).get(at)!).push(group);
  }
  return [...out].map(([at, groups]) => ({ at, groups }));
}

/** The scope's ended calls in the windows ending at `to` and starting at each of `starts` (all within the scope), by kind of ending, counted from raw spans. */
export async function sloRawCallWindows<K extends string>(db: Executor, q: SloScope, starts: Record<K, number>): Promise<Record<K, SloCallGroup[]>> {
  const keys = Object.keys(starts) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as SloCallGroup[]])) as Record<K, SloCallGroup[]>;
  if (q.tools.length === 0) return out;
  const sums = keys.map((_, i) => `SUM(CASE WHEN c.started_at >= @start${i} THEN 1 ELSE 0 END) AS w${i}`).join(", ");
  const rows = await db.all<Record<string, number | string>>(
    `SELECT c.failed, c.declined, c.recovered, ${sums} FROM (${finalCalls(db)}) c GROUP BY c.failed, c.declined, c.recovered ORDER BY c.failed, c.declined, c.recovered`,
    { ...scopeParams(q), ...Object.fromEntries(keys.map((k, i) => [`start${i}`, starts[k]])) },
  );
  for (const r of rows) {
    keys.forEach((k, i) => {
      const calls = Number(r[`w${i}`] ?? 0);
      if (calls > 0) out[k].push({ failed: Number(r.failed) === 1, declined: Number(r.declined) === 1, recovered: Number(r.recovered) === 1, calls });
    });
  }
  return out;
}

const TOP = 5;

/** The `top` keys with the most calls, ties by name (both engines answer alike). */
export function topOf(counts: ReadonlyMap<string, number>, top = TOP): { key: string; count: number }[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, top)
    .map(([key, count]) => ({ key, count }));
}

/**
 * The bad calls of a scope grouped by code, tool, run, release and environment (most first, ties
 * by name; runs with more bad calls first, then the latest), and the first of them: one scan,
 * grouped in SQL by all five and summed here.
 */
export async function sloBadCalls(db: Executor, q: SloScope & { countDeclines: boolean; countRecovered: boolean }) {
  const empty = { codes: [], tools: [], runs: [], releases: [], environments: [], firstAt: null };
  if (q.tools.length === 0) return empty;
  const rows = await db.all<{ code: string | null; tool: string; run_id: string; release: string | null; environment: string | null; n: number | string; first_at: number | string; last_at: number | string }>(
    `SELECT c.code, c.tool, c.run_id, c.release, c.environment, count(*) AS n, min(c.started_at) AS first_at, max(c.started_at) AS last_at
     FROM (${finalCalls(db, true)}) c
     WHERE c.failed = 1 AND NOT (c.declined = 1 AND @countDeclines = 0) AND NOT (c.declined = 0 AND c.recovered = 1 AND @countRecovered = 0)
     GROUP BY c.code, c.tool, c.run_id, c.release, c.environment`,
    { ...scopeParams(q), countDeclines: q.countDeclines ? 1 : 0, countRecovered: q.countRecovered ? 1 : 0 },
  );
  const by = (key: (r: (typeof rows)[number]) => string | null) => {
    const counts = new Map<string, number>();
    for (const r of rows) {
      const k = key(r);
      if (k !== null) counts.set(k, (counts.get(k) ?? 0) + Number(r.n));
    }
    return topOf(counts);
  };
  const runs = new Map<string, { count: number; lastAt: number }>();
  for (const r of rows) {
    const run = runs.get(r.run_id) ?? { count: 0, lastAt: 0 };
    runs.set(r.run_id, { count: run.count + Number(r.n), lastAt: Math.max(run.lastAt, Number(r.last_at)) });
  }
  return {
    codes: by((r) => r.code).map(({ key, count }) => ({ code: key, count })),
    tools: by((r) => r.tool).map(({ key, count }) => ({ tool: key, count })),
    runs: [...runs]
      .sort((a, b) => b[1].count - a[1].count || b[1].lastAt - a[1].lastAt || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, TOP)
      .map(([runId, r]) => ({ runId, count: r.count, lastAt: r.lastAt })),
    releases: by((r) => r.release).map((r) => r.key),
    environments: by((r) => r.environment).map((r) => r.key),
    firstAt: rows.reduce<number | null>((min, r) => (min === null ? Number(r.first_at) : Math.min(min, Number(r.first_at))), null),
  };
}
