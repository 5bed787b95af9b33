import type { Executor } from "../client";
import { FAILED } from "../slos/call-ending-sql";
import { topOf } from "../slos/slo-counts";
import { SIX_HOURS_MS, periodOf } from "../rollups/periods";
import type { AlertContext } from "@/lib/alerts/describe";

/** Which attempts an alert is about: its rule kind's own measure. */
export type AlertMatch = "failed" | "retried" | "refused" | "failed_closed" | "code";

const NOT_RETRIED = "(s.decision IS NULL OR s.decision <> 'retried')";

const MATCH_SQL: Record<AlertMatch, string> = {
  // The same predicates as the rule facts (facts.ts), so the runs shown are the ones counted.
  failed: `s.outcome IS NOT NULL AND s.outcome <> 'ok' AND ${NOT_RETRIED}`,
  retried: "s.decision = 'retried'",
  refused: "s.outcome IN ('refused', 'declined')",
  failed_closed: "s.decision = 'failed_closed'",
  code: "s.code = @code",
};

/**
 * `failed` without cancelled attempts, spelt as the partial index of failed attempts is, so a busy
 * tool's failures are read through it rather than every attempt of the tool (SQLite is told to).
 */
const FAILED_NOT_CANCELLED = `${FAILED} AND ${NOT_RETRIED}`;

const TOP = 3;

/**
 * Whether a tool's cancelled attempts can be left out of a `failed` read of [from, to): the
 * six-hourly span rollup (written with the spans, pruned only before a cutoff) still holds a period
 * at or before the window's and counts no cancelled attempt of the tool in it.
 */
async function noCancelled(db: Executor, project: string, tool: string, from: number, to: number): Promise<boolean> {
  const start = periodOf(from, SIX_HOURS_MS);
  const row = await db.get<{ covered: number | string | boolean; cancelled: number | string | boolean }>(
    `SELECT EXISTS (SELECT 1 FROM span_rollups_6h WHERE project_id = @project AND hour <= @start) AS covered,
       EXISTS (SELECT 1 FROM span_rollups_6h WHERE project_id = @project AND hour >= @start AND hour < @to AND tool = @tool AND outcome = 'cancelled') AS cancelled`,
    { project, tool, start, to },
  );
  const yes = (v: number | string | boolean | undefined) => v === true || Number(v) === 1;
  return yes(row?.covered) && !yes(row?.cancelled);
}

/**
 * The codes, releases, environments, first time and top runs of a tool's matching attempts started in
 * [from, to) (and, for one code, in one release when given): what an alert message names. One read
 * of the matching attempts grouped by code, run, release and environment, summed here; ties are
 * broken by name so both engines answer alike.
 */
export async function loadAlertContext(
  db: Executor,
  project: string,
  q: { tool: string; match: AlertMatch; code?: string; release?: string; from: number; to: number },
): Promise<AlertContext> {
  const viaFailed = q.match === "failed" && (await noCancelled(db, project, q.tool, q.from, q.to));
  const hint = viaFailed && db.dialect === "sqlite" ? "INDEXED BY spans_project_failed_time_idx" : "";
  const match = viaFailed ? FAILED_NOT_CANCELLED : MATCH_SQL[q.match];
  const release = q.release === undefined ? "" : " AND (em.release = @release OR em.tool_version = @release)";
  const rows = await db.all<{ code: string | null; run_id: string; label: string | null; environment: string | null; n: number | string; first_at: number | string; last_at: number | string }>(
    `SELECT s.code, s.run_id, COALESCE(em.release, em.tool_version) AS label, em.environment, count(*) AS n, min(s.started_at) AS first_at, max(s.started_at) AS last_at
     FROM tool_call_spans s ${hint} LEFT JOIN span_emitters em ON em.id = s.emitter_id
     WHERE s.project_id = @project AND s.tool = @tool AND s.started_at >= @from AND s.started_at < @to AND ${match}${release}
     GROUP BY s.code, s.run_id, COALESCE(em.release, em.tool_version), em.environment`,
    { project, tool: q.tool, code: q.code ?? "", release: q.release ?? "", from: q.from, to: q.to },
  );
  const by = (key: (r: (typeof rows)[number]) => string | null) => {
    const counts = new Map<string, number>();
    for (const r of rows) {
      const k = key(r);
      if (k !== null) counts.set(k, (counts.get(k) ?? 0) + Number(r.n));
    }
    return topOf(counts, TOP);
  };
  const runs = new Map<string, { count: number; lastAt: number }>();
  for (const r of rows) {
    const run = runs.get(r.run_id) ?? { count: 0, lastAt: 0 };
    runs.set(r.run_id, { count: run.count + Number(r.n), lastAt: Math.max(run.lastAt, Number(r.last_at)) });
  }
  return {
    codes: by((r) => r.code).map(({ key, count }) => ({ code: key, count })),
    releases: by((r) => r.label).map((r) => r.key),
    environments: by((r) => r.environment).map((r) => r.key),
    runs: [...runs]
      .sort((a, b) => b[1].count - a[1].count || b[1].lastAt - a[1].lastAt || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, TOP)
      .map(([runId]) => runId),
    firstAt: rows.reduce<number | null>((min, r) => (min === null ? Number(r.first_at) : Math.min(min, Number(r.first_at))), null),
  };
}
