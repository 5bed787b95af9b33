import { CODE_SERIES_MAX, TOOL_RELEASES_MAX, type ToolDetail } from "@/lib/contracts/tool-detail";
import type { Executor } from "../client";
import { DELAY_BUCKETS_MS } from "../schema/delay-histograms";
import { toolStats } from "./list-tools";
import {
  ATTEMPT_DIMS, DELAY_DIMS, rollupWhere, SPAN_ROLLUP_DIMS, type AttemptCountRow, type DashboardParams, type DelayHistogramRow,
  rollupTables, type SpanRollupRow,
} from "./rollup-filters";
import type { toolCallSpans } from "../schema/tool-call-spans";

const RECENT_RUNS = 10;
// Failing attempts read to find the recent runs; through the (project, tool, started_at) index.
const RECENT_SPAN_SCAN = 500;

type SumsRow = { calls: number; retried: number; retryAttempts: number };
type AttemptRow = Pick<AttemptCountRow, "attempt" | "spans">;
type DelayRow = Pick<DelayHistogramRow, "kind"> & { bucket: number; n: number };
type DelayByCodeRow = Pick<SpanRollupRow, "code" | "retryAfterCount" | "backoffCount" | "failedClosed"> & { raSum: number; boSum: number };
type Span = typeof toolCallSpans.$inferSelect;
type RecentSpanRow = Pick<Span, "runId" | "code" | "attempt"> & { at: number; outcome: string };

const emptyRow = (tool: string): ToolDetail["summary"] => ({
  tool, attempts: 0, calls: 0, unnumbered: 0, callsNotOk: 0, callNotOkRate: null, failures: 0, failureRate: null, declined: 0, refused: 0, meanAttempts: null, maxAttempts: 0,
  retryShare: null, failedClosed: 0, topCodes: [], retryAfter: { count: 0, p50: null, p90: null }, backoff: { count: 0, p50: null, p90: null },
});

/**
 * Everything the tool page shows, for one tool and window; charts from rollups, recent runs from the
 * span index. `comparePrevious` adds the summary over the window of equal length that ends where
 * this one starts.
 */
export async function getToolDetail(db: Executor, p: DashboardParams & { tool: string }, options: { comparePrevious?: boolean } = {}): Promise<ToolDetail> {
  const t = rollupTables(p.window);
  const q: DashboardParams = { ...p, filters: { ...p.filters, tool: p.tool } };
  const w = rollupWhere(q, SPAN_ROLLUP_DIMS);
  const a = rollupWhere(q, ATTEMPT_DIMS);
  const d = rollupWhere(q, DELAY_DIMS);
  // Independent reads: on PostgreSQL they run side by side on the pool.
  const [stats, previousStats, outcomeSeries, codeSeries, sumsRow, spansByAttempt, delayRows, delayByCodeRows, releases, recentFailingRuns] = await Promise.all([
    toolStats(db, q),
    // The tiles' figures come from one place, so the two periods are computed alike.
    options.comparePrevious ? toolStats(db, { ...q, window: previousWindow(q.window) }) : null,
    db.all<ToolDetail["outcomeSeries"][number]>(
      `SELECT (hour / ?) * ? AS t, outcome, sum(spans) AS attempts FROM ${t.spans}
       WHERE ${w.sql} GROUP BY t, outcome ORDER BY t, outcome`,
      [p.window.stepMs, p.window.stepMs, ...w.args],
    ),
    db.all<ToolDetail["codeSeries"][number]>(
      `SELECT (hour / ?) * ? AS t, code, sum(spans) AS failures FROM ${t.spans}
       WHERE ${w.sql} AND outcome NOT IN ('ok','') GROUP BY t, code ORDER BY t, code`,
      [p.window.stepMs, p.window.stepMs, ...w.args],
    ),
    db.get<SumsRow>(
      `SELECT coalesce(sum(first_attempts + unnumbered),0) AS calls, coalesce(sum(second_attempts),0) AS retried,
         coalesce(sum(retry_attempts),0) AS "retryAttempts" FROM ${t.spans} WHERE ${w.sql}`,
      w.args,
    ),
    db.all<AttemptRow>(`SELECT attempt, sum(spans) AS spans FROM ${t.attempts} WHERE ${a.sql} GROUP BY attempt ORDER BY attempt`, a.args),
    db.all<DelayRow>(`SELECT kind, bucket_ms AS bucket, sum(count) AS n FROM ${t.delays} WHERE ${d.sql} GROUP BY kind, bucket_ms`, d.args),
    // HAVING repeats the sums: PostgreSQL does not see the select list's aliases there.
    db.all<DelayByCodeRow>(
      `SELECT code, sum(retry_after_sum_ms) AS "raSum", sum(retry_after_count) AS "retryAfterCount",
         sum(backoff_sum_ms) AS "boSum", sum(backoff_count) AS "backoffCount", sum(failed_closed) AS "failedClosed"
       FROM ${t.spans} WHERE ${w.sql} AND code != '' GROUP BY code
       HAVING sum(retry_after_count) > 0 OR sum(backoff_count) > 0 OR sum(failed_closed) > 0 ORDER BY code`,
      w.args,
    ),
    // count(*) OVER () counts the groups before the LIMIT: every release, however many are listed.
    db.all<ToolDetail["releases"][number] & { releaseCount: number }>(
      `SELECT release, sum(spans) AS attempts, coalesce(sum(CASE WHEN outcome NOT IN ('ok','') THEN spans END),0) AS failures,
         min(hour) AS "firstSeen", max(hour) AS "lastSeen", count(*) OVER () AS "releaseCount"
       FROM ${t.spans} WHERE ${w.sql} GROUP BY release ORDER BY "lastSeen" DESC, release LIMIT ${TOOL_RELEASES_MAX}`,
      w.args,
    ),
    recentFailing(db, p),
  ]);
  const summary = stats.rows[0] ?? emptyRow(p.tool);
  const sums = sumsRow ?? { calls: 0, retried: 0, retryAttempts: 0 };

  const outcomeTotals = new Map<string, number>();
  for (const s of outcomeSeries) outcomeTotals.set(s.outcome, (outcomeTotals.get(s.outcome) ?? 0) + s.attempts);
  const outcomes = [...outcomeTotals].map(([outcome, attempts]) => ({ outcome, attempts })).sort((a, b) => b.attempts - a.attempts || a.outcome.localeCompare(b.outcome));

  const delayHistogram = DELAY_BUCKETS_MS.map((bucketMs) => ({
    bucketMs,
    retryAfter: delayRows.find((r) => r.kind === "retry_after" && r.bucket === bucketMs)?.n ?? 0,
    backoff: delayRows.find((r) => r.kind === "backoff" && r.bucket === bucketMs)?.n ?? 0,
  }));

  const delaysByCode = delayByCodeRows.map(({ raSum, boSum, ...r }) => ({
    ...r,
    retryAfterMeanMs: r.retryAfterCount > 0 ? Math.round(raSum / r.retryAfterCount) : null,
    backoffMeanMs: r.backoffCount > 0 ? Math.round(boSum / r.backoffCount) : null,
  }));

  return {
    project: p.projectId,
    window: p.window,
    summary,
    previous: previousStats ? (previousStats.rows[0] ?? emptyRow(p.tool)) : null,
    outcomeSeries,
    ...splitCodeSeries(codeSeries),
    outcomes,
    attemptsPerCall: {
      single: Math.max(0, sums.calls - sums.retried),
      retried: sums.retried,
      meanAttemptsWhenRetried: sums.retried > 0 ? 1 + sums.retryAttempts / sums.retried : null,
      maxAttempts: summary.maxAttempts,
      histogram: callsByAttempts(spansByAttempt),
    },
    delayHistogram,
    delaysByCode,
    releases: releases.slice(0, TOOL_RELEASES_MAX).map(({ releaseCount: _n, ...r }) => r),
    releaseCount: releases[0]?.releaseCount ?? 0,
    recentFailingRuns,
  };
}

/** The codes with most failures as their own series, every other code summed per bucket. */
function splitCodeSeries(points: ToolDetail["codeSeries"]): Pick<ToolDetail, "codeSeries" | "codeSeriesRest"> {
  const totals = new Map<string, number>();
  for (const p of points) totals.set(p.code, (totals.get(p.code) ?? 0) + p.failures);
  if (totals.size <= CODE_SERIES_MAX) return { codeSeries: points, codeSeriesRest: [] };
  const named = new Set([...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, CODE_SERIES_MAX).map(([c]) => c));
  const rest = new Map<number, number>();
  for (const p of points) if (!named.has(p.code)) rest.set(p.t, (rest.get(p.t) ?? 0) + p.failures);
  return {
    codeSeries: points.filter((p) => named.has(p.code)),
    codeSeriesRest: [...rest].sort((a, b) => a[0] - b[0]).map(([t, failures]) => ({ t, failures })),
  };
}

/** The window of equal length and step that ends where this one starts: both periods read the same rollup resolution. */
function previousWindow(w: DashboardParams["window"]): DashboardParams["window"] {
  return { ...w, from: w.from - (w.to - w.from), to: w.from };
}

/** A call that needed k attempts has spans for 1..k, so exactly-k calls are spans(k) − spans(k+1). */
export function callsByAttempts(spansByAttempt: readonly { attempt: number; spans: number }[]): { attempts: number; calls: number }[] {
  const spans = new Map(spansByAttempt.map((r) => [r.attempt, r.spans]));
  return spansByAttempt
    .map(({ attempt, spans: n }) => ({ attempts: attempt, calls: Math.max(0, n - (spans.get(attempt + 1) ?? 0)) }))
    .filter((r) => r.calls > 0);
}

/**
 * The recent failing attempts of a tool, newest first (pk breaks ties so both engines agree).
 * SQLite is pinned to the (project, tool, started_at) index, which serves the order and the LIMIT:
 * its planner may otherwise take another index of the table and read far more spans (a known slow
 * plan). INDEXED BY is SQLite-only syntax; PostgreSQL's planner picks that index unaided.
 */
async function recentFailing(db: Executor, p: DashboardParams & { tool: string }): Promise<ToolDetail["recentFailingRuns"]> {
  const hint = db.dialect === "sqlite" ? "INDEXED BY spans_project_tool_time_idx" : "";
  const rows = await db.all<RecentSpanRow>(
    `SELECT run_id AS "runId", started_at AS at, outcome, code, attempt FROM tool_call_spans ${hint}
     WHERE project_id = ? AND tool = ? AND started_at >= ? AND started_at < ? AND outcome IS NOT NULL AND outcome != 'ok'
     ORDER BY started_at DESC, pk DESC LIMIT ${RECENT_SPAN_SCAN}`,
    [p.projectId, p.tool, p.window.from, p.window.to],
  );
  const runs = new Map<string, ToolDetail["recentFailingRuns"][number]>();
  for (const r of rows) {
    let run = runs.get(r.runId);
    if (!run) {
      if (runs.size >= RECENT_RUNS) continue;
      run = { runId: r.runId, lastAt: r.at, failedAttempts: 0, codes: [], outcomes: [], maxAttempt: null };
      runs.set(r.runId, run);
    }
    run.failedAttempts++;
    if (r.code !== null && !run.codes.includes(r.code)) run.codes.push(r.code);
    if (!run.outcomes.includes(r.outcome)) run.outcomes.push(r.outcome);
    if (r.attempt !== null) run.maxAttempt = Math.max(run.maxAttempt ?? 0, r.attempt);
  }
  return [...runs.values()];
}
