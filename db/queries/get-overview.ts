import type { Overview } from "@/lib/contracts/overview";
import type { Executor } from "../client";
import { projectHasData, ratio, rollupWhere, SPAN_ROLLUP_DIMS, type DashboardParams, rollupTables, type SpanRollupRow } from "./rollup-filters";

/** Per bucket and outcome: the sums the totals and the outcome series need. */
type BucketRow = Pick<SpanRollupRow, "outcome"> & {
  t: number; attempts: number; calls: number; unnumbered: number; retries: number; retriedCalls: number; failedClosed: number; backoffWaitedMs: number;
};
type CellRow = Pick<SpanRollupRow, "tool" | "code" | "outcome"> & { attempts: number };

const TOP_N = 8;
const isFailure = (outcome: string) => outcome !== "ok" && outcome !== "";

/**
 * Totals, the outcome mix per bucket, and the top failing codes and tools of a window. Two scans of
 * the hourly rollups (each window scan dominates the cost, so totals are summed from the series in JS).
 */
export async function getOverview(db: Executor, p: DashboardParams, options: { comparePrevious?: boolean } = {}): Promise<Overview> {
  const t = rollupTables(p.window);
  const w = rollupWhere(p, SPAN_ROLLUP_DIMS);
  // Independent reads: on PostgreSQL they run side by side on the pool.
  const [buckets, cells, hasData, releases, previous] = await Promise.all([
    db.all<BucketRow>(
      `SELECT (hour / ?) * ? AS t, outcome, sum(spans) AS attempts, sum(first_attempts + unnumbered) AS calls,
         sum(unnumbered) AS unnumbered, sum(retry_attempts) AS retries, sum(second_attempts) AS "retriedCalls", sum(failed_closed) AS "failedClosed",
         sum(backoff_sum_ms) AS "backoffWaitedMs"
       FROM ${t.spans} WHERE ${w.sql} GROUP BY t, outcome ORDER BY t, outcome`,
      [p.window.stepMs, p.window.stepMs, ...w.args],
    ),
    db.all<CellRow>(`SELECT tool, code, outcome, sum(spans) AS attempts FROM ${t.spans} WHERE ${w.sql} GROUP BY tool, code, outcome`, w.args),
    projectHasData(db, p.projectId),
    releaseMarkers(db, p),
    options.comparePrevious ? previousTotals(db, p) : null,
  ]);
  const totals = sumTotals(buckets);

  const tools = new Map<string, Overview["topTools"][number]>();
  const codes = new Map<string, Overview["topCodes"][number] & { toolSet: Set<string> }>();
  for (const c of cells) {
    const t = tools.get(c.tool) ?? { tool: c.tool, attempts: 0, failures: 0, failureRate: null, declined: 0, refused: 0 };
    tools.set(c.tool, t);
    t.attempts += c.attempts;
    if (!isFailure(c.outcome)) continue;
    t.failures += c.attempts;
    if (c.outcome === "declined") t.declined += c.attempts;
    if (c.outcome === "refused") t.refused += c.attempts;
    if (c.code === "") continue;
    const k = codes.get(c.code) ?? { code: c.code, failures: 0, declined: 0, refused: 0, tools: 0, toolSet: new Set<string>() };
    codes.set(c.code, k);
    k.failures += c.attempts;
    if (c.outcome === "declined") k.declined += c.attempts;
    if (c.outcome === "refused") k.refused += c.attempts;
    k.toolSet.add(c.tool);
  }

  return {
    project: p.projectId,
    window: p.window,
    hasData,
    totals,
    releases,
    previous,
    series: buckets.map(({ t, outcome, attempts }) => ({ t, outcome, attempts })),
    topCodes: [...codes.values()]
      .sort((a, b) => b.failures - a.failures || a.code.localeCompare(b.code))
      .slice(0, TOP_N)
      .map(({ toolSet, ...k }) => ({ ...k, tools: toolSet.size })),
    topTools: [...tools.values()]
      .filter((t) => t.failures > 0)
      .sort((a, b) => b.failures - a.failures || a.tool.localeCompare(b.tool))
      .slice(0, TOP_N)
      .map((t) => ({ ...t, failureRate: ratio(t.failures, t.attempts) })),
  };
}

type Totals = Overview["totals"];

function sumTotals(rows: readonly Omit<BucketRow, "t">[]): Totals {
  const totals = { attempts: 0, calls: 0, unnumbered: 0, failures: 0, declined: 0, refused: 0, retries: 0, retriedCalls: 0, failedClosed: 0, backoffWaitedMs: 0 };
  for (const b of rows) {
    totals.attempts += b.attempts;
    totals.calls += b.calls;
    totals.unnumbered += b.unnumbered;
    totals.retries += b.retries;
    totals.retriedCalls += b.retriedCalls;
    totals.failedClosed += b.failedClosed;
    totals.backoffWaitedMs += b.backoffWaitedMs;
    if (isFailure(b.outcome)) totals.failures += b.attempts;
    if (b.outcome === "declined") totals.declined += b.attempts;
    if (b.outcome === "refused") totals.refused += b.attempts;
  }
  return { ...totals, failureRate: ratio(totals.failures, totals.attempts) };
}

/** The same totals over the window of equal length that ends where this one starts. */
async function previousTotals(db: Executor, p: DashboardParams): Promise<Totals> {
  const span = p.window.to - p.window.from;
  const prev: DashboardParams = { ...p, window: { ...p.window, from: p.window.from - span, to: p.window.from } };
  const t = rollupTables(prev.window);
  const w = rollupWhere(prev, SPAN_ROLLUP_DIMS);
  const rows = await db.all<Omit<BucketRow, "t">>(
    `SELECT outcome, sum(spans) AS attempts, sum(first_attempts + unnumbered) AS calls, sum(unnumbered) AS unnumbered,
       sum(retry_attempts) AS retries, sum(second_attempts) AS "retriedCalls", sum(failed_closed) AS "failedClosed",
       sum(backoff_sum_ms) AS "backoffWaitedMs"
     FROM ${t.spans} WHERE ${w.sql} GROUP BY outcome`,
    w.args,
  );
  return sumTotals(rows);
}

const SIX_HOURS_MS = 6 * 3_600_000;
const RELEASE_MARKERS_MAX = 100;

/**
 * Releases first seen inside the window. The six-hourly rollup finds each release's first period
 * (a range of its (project_id, hour) key up to the window's end, within the retention); the hourly
 * rollup then narrows the ones inside the window to their first hour.
 */
async function releaseMarkers(db: Executor, p: DashboardParams): Promise<Overview["releases"]> {
  // The latest RELEASE_MARKERS_MAX first sightings: a marker per release is unreadable beyond that, and
  // a project with thousands of releases must not turn into thousands of lookups.
  const candidates = await db.all<{ release: string; first: number }>(
    `SELECT release, min(hour) AS "first" FROM span_rollups_6h WHERE project_id = ? AND hour < ? AND release <> ''
     GROUP BY release HAVING min(hour) > ? ORDER BY "first" DESC, release LIMIT ${RELEASE_MARKERS_MAX}`,
    [p.projectId, p.window.to, p.window.from - SIX_HOURS_MS],
  );
  const narrowed = await Promise.all(
    candidates.map(async (r) => {
      const hourly = await db.get<{ first: number | null }>(
        `SELECT min(hour) AS "first" FROM span_rollups_hourly WHERE project_id = ? AND hour >= ? AND hour < ? AND release = ?`,
        [p.projectId, r.first, r.first + SIX_HOURS_MS, r.release],
      );
      return { release: r.release, firstSeen: hourly?.first ?? r.first };
    }),
  );
  return narrowed
    .filter((r) => r.firstSeen >= p.window.from && r.firstSeen < p.window.to)
    .sort((a, b) => a.firstSeen - b.firstSeen || a.release.localeCompare(b.release));
}
