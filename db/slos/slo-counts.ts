import type { Executor } from "../client";
import { jsonRows } from "../store/dialect-sql";
import type { SloCallGroup } from "@/lib/slo/burn";
import { coveredTools } from "@/lib/slo/tool-patterns";

const SIX_HOURS = 6 * 3_600_000;

/** Which calls an SLO reads: its tools (names already resolved from its patterns) and a time range. */
export interface SloScope {
  project: string;
  tools: readonly string[];
  from: number;
  to: number;
}

/**
 * One row per call that has ended, at its last attempt: a call's attempts are retried failures up
 * to that one, so the last says how the call ended. A failing attempt the loop retried whose next
 * attempt has not arrived is not an end yet. `failed` is any outcome but ok and cancelled (a
 * cancelled call is the run stopping, not the tool failing); `recovered` says the model corrected
 * itself after the error it was told (the call's told step is recovered or replaced,
 * docs/after-told.md). Times are the last attempt's start.
 */
function finalCalls(db: Executor): string {
  return `SELECT s.run_id, s.call_id, s.tool, s.code, s.started_at, COALESCE(s.release, s.tool_version) AS release, s.environment,
      CASE WHEN s.outcome IS NOT NULL AND s.outcome NOT IN ('ok', 'cancelled') THEN 1 ELSE 0 END AS failed,
      CASE WHEN s.outcome = 'declined' THEN 1 ELSE 0 END AS declined,
      CASE WHEN EXISTS (SELECT 1 FROM told_steps t WHERE t.project_id = s.project_id AND t.run_id = s.run_id AND t.call_id = s.call_id AND t.step IN ('recovered', 'replaced'))
        THEN 1 ELSE 0 END AS recovered
    FROM tool_call_spans s
    WHERE s.project_id = @project AND s.started_at >= @from AND s.started_at < @to
      AND s.tool IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@tools")})
      AND (s.decision IS NULL OR s.decision <> 'retried')
      AND NOT EXISTS (SELECT 1 FROM tool_call_spans n WHERE n.project_id = s.project_id AND n.run_id = s.run_id AND n.call_id = s.call_id AND n.attempt > s.attempt)`;
}

const scopeParams = (q: SloScope) => ({ project: q.project, from: q.from, to: q.to, tools: JSON.stringify(q.tools.map((t) => [t])) });

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

/** The scope's ended calls per bucket of `bucketMs` (aligned to the epoch) and kind of ending. */
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

/** The scope's ended calls in the windows ending at `to` and starting at each of `starts` (all within the scope), by kind of ending. */
export async function sloCallWindows<K extends string>(db: Executor, q: SloScope, starts: Record<K, number>): Promise<Record<K, SloCallGroup[]>> {
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

/** The bad calls of a scope grouped by code, tool, run, release and environment (most first, ties by name), and the first of them. */
export async function sloBadCalls(db: Executor, q: SloScope & { countDeclines: boolean; countRecovered: boolean }) {
  const empty = { codes: [], tools: [], runs: [], releases: [], environments: [], firstAt: null };
  if (q.tools.length === 0) return empty;
  const bad = `(${finalCalls(db)}) c WHERE c.failed = 1 AND NOT (c.declined = 1 AND @countDeclines = 0) AND NOT (c.declined = 0 AND c.recovered = 1 AND @countRecovered = 0)`;
  const params = { ...scopeParams(q), countDeclines: q.countDeclines ? 1 : 0, countRecovered: q.countRecovered ? 1 : 0 };
  const top = (column: string) =>
    db.all<{ key: string; n: number | string }>(`SELECT ${column} AS key, count(*) AS n FROM ${bad} AND ${column} IS NOT NULL GROUP BY ${column} ORDER BY count(*) DESC, ${column} LIMIT ${TOP}`, params);
  const [codes, tools, releases, environments] = [await top("c.code"), await top("c.tool"), await top("c.release"), await top("c.environment")];
  const runs = await db.all<{ run_id: string; n: number | string; last_at: number | string }>(
    `SELECT c.run_id, count(*) AS n, max(c.started_at) AS last_at FROM ${bad} GROUP BY c.run_id ORDER BY count(*) DESC, max(c.started_at) DESC, c.run_id LIMIT ${TOP}`,
    params,
  );
  const first = await db.get<{ at: number | string | null }>(`SELECT min(c.started_at) AS at FROM ${bad}`, params);
  return {
    codes: codes.map((r) => ({ code: r.key, count: Number(r.n) })),
    tools: tools.map((r) => ({ tool: r.key, count: Number(r.n) })),
    runs: runs.map((r) => ({ runId: r.run_id, count: Number(r.n), lastAt: Number(r.last_at) })),
    releases: releases.map((r) => r.key),
    environments: environments.map((r) => r.key),
    firstAt: first?.at == null ? null : Number(first.at),
  };
}
