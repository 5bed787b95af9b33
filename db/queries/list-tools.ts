import { OUTCOMES } from "@/lib/contracts/enums";
import { capList, pageOf, type PageQuery } from "@/lib/contracts/paging";
import { FACET_MAX, type Facets, type ToolRow, type ToolSort, type ToolsAnswer } from "@/lib/contracts/tools";
import type { Executor } from "../client";
import {
  DELAY_DIMS, histogramPercentile, ratio, rollupTables, rollupWhere, sortRows, SPAN_ROLLUP_DIMS,
  type DashboardParams, type DelayHistogramRow, type SpanRollupRow,
} from "./rollup-filters";

const TOP_CODES_PER_TOOL = 3;

type CellRow = Pick<SpanRollupRow, "tool" | "code" | "outcome" | "unnumbered" | "failedClosed"> & {
  attempts: number; calls: number; maxAttempt: number; retriedCalls: number;
};
type DelayRow = Pick<DelayHistogramRow, "tool" | "kind"> & { bucket: number; n: number };

type Counters = Omit<ToolRow, "tool" | "failureRate" | "callsNotOk" | "callNotOkRate" | "meanAttempts" | "retryShare" | "topCodes" | "retryAfter" | "backoff"> & {
  retriedCalls: number;
  okAttempts: number;
};

/** Per-tool counters and delay percentiles for a window, from the hourly rollups and delay histograms. */
export async function toolStats(db: Executor, p: DashboardParams): Promise<{ rows: ToolRow[]; delaysIgnoreFilters: string[] }> {
  const t = rollupTables(p.window);
  const w = rollupWhere(p, SPAN_ROLLUP_DIMS);
  const d = rollupWhere(p, DELAY_DIMS);
  const [cells, delayRows] = await Promise.all([
    // One scan grouped by (tool, code, outcome) feeds both the counters and the top codes.
    db.all<CellRow>(
      `SELECT tool, code, outcome, sum(spans) AS attempts, sum(first_attempts + unnumbered) AS calls, sum(unnumbered) AS unnumbered,
         max(max_attempt) AS "maxAttempt", sum(second_attempts) AS "retriedCalls", sum(failed_closed) AS "failedClosed"
       FROM ${t.spans} WHERE ${w.sql} GROUP BY tool, code, outcome`,
      w.args,
    ),
    db.all<DelayRow>(
      `SELECT tool, kind, bucket_ms AS bucket, sum(count) AS n FROM ${t.delays}
       WHERE ${d.sql} GROUP BY tool, kind, bucket_ms`,
      d.args,
    ),
  ]);
  const byTool = new Map<string, Counters & { tool: string }>();
  const codesByTool = new Map<string, Map<string, number>>();
  for (const c of cells) {
    const t = byTool.get(c.tool) ?? { tool: c.tool, attempts: 0, calls: 0, unnumbered: 0, failures: 0, declined: 0, refused: 0, maxAttempts: 0, retriedCalls: 0, failedClosed: 0, okAttempts: 0 };
    byTool.set(c.tool, t);
    t.attempts += c.attempts;
    t.calls += c.calls;
    t.unnumbered += c.unnumbered;
    t.maxAttempts = Math.max(t.maxAttempts, c.maxAttempt);
    t.retriedCalls += c.retriedCalls;
    t.failedClosed += c.failedClosed;
    if (c.outcome === "ok") t.okAttempts += c.attempts;
    if (c.outcome === "ok" || c.outcome === "") continue;
    t.failures += c.attempts;
    if (c.outcome === "declined") t.declined += c.attempts;
    if (c.outcome === "refused") t.refused += c.attempts;
    if (c.code === "") continue;
    const m = codesByTool.get(c.tool) ?? new Map<string, number>();
    codesByTool.set(c.tool, m);
    m.set(c.code, (m.get(c.code) ?? 0) + c.attempts);
  }
  const counters = [...byTool.values()];

  const hist = new Map<string, Map<number, number>>();
  for (const r of delayRows) {
    const key = `${r.tool}\u0000${r.kind}`;
    const m = hist.get(key) ?? new Map<number, number>();
    m.set(r.bucket, r.n);
    hist.set(key, m);
  }
  const stats = (tool: string, kind: string) => {
    const m = hist.get(`${tool}\u0000${kind}`) ?? new Map<number, number>();
    let count = 0;
    for (const n of m.values()) count += n;
    return { count, p50: histogramPercentile(m, 0.5), p90: histogramPercentile(m, 0.9) };
  };

  const rows = counters.map(({ retriedCalls, okAttempts, ...c }): ToolRow => {
    // A window can cut a call (first attempt before it, the ok retry inside): never below zero.
    const callsNotOk = Math.max(0, c.calls - okAttempts);
    return {
    ...c,
    callsNotOk,
    callNotOkRate: ratio(callsNotOk, c.calls),
    failureRate: ratio(c.failures, c.attempts),
    meanAttempts: ratio(c.attempts, c.calls),
    retryShare: ratio(retriedCalls, c.calls),
    topCodes: [...(codesByTool.get(c.tool) ?? new Map<string, number>())]
      .map(([code, failures]) => ({ code, failures }))
      .sort((a, b) => b.failures - a.failures || a.code.localeCompare(b.code))
      .slice(0, TOP_CODES_PER_TOOL),
    retryAfter: stats(c.tool, "retry_after"),
    backoff: stats(c.tool, "backoff"),
    };
  });
  return { rows, delaysIgnoreFilters: d.ignored.map((k) => (k === "errorClass" ? "error_class" : k)) };
}

const SORT_VALUE: Record<ToolSort, (r: ToolRow) => number | string | null> = {
  tool: (r) => r.tool,
  calls: (r) => r.calls,
  calls_not_ok: (r) => r.callsNotOk,
  call_not_ok_rate: (r) => r.callNotOkRate,
  attempts: (r) => r.attempts,
  failures: (r) => r.failures,
  failure_rate: (r) => r.failureRate,
  declined: (r) => r.declined,
  refused: (r) => r.refused,
  mean_attempts: (r) => r.meanAttempts,
  max_attempts: (r) => r.maxAttempts,
  retry_share: (r) => r.retryShare,
  retry_after_p50: (r) => r.retryAfter.p50,
  retry_after_p90: (r) => r.retryAfter.p90,
  backoff_p50: (r) => r.backoff.p50,
  backoff_p90: (r) => r.backoff.p90,
  failed_closed: (r) => r.failedClosed,
};

/** Sorts rows; nulls (no data) always go last, ties break on the tool name. */
export function sortToolRows(rows: ToolRow[], sort: ToolSort, dir: "asc" | "desc"): ToolRow[] {
  return sortRows(rows, SORT_VALUE[sort], dir, (r) => r.tool);
}

/** Each facet and the span rollup column it counts. */
const FACET_COLUMNS = [
  ["codes", "code"],
  ["errorClasses", "error_class"],
  ["releases", "release"],
  ["services", "service"],
  ["environments", "environment"],
  ["outcomes", "outcome"],
] as const;

/**
 * The values each filter can take in the window, unfiltered, with the attempts of each. Codes and
 * classes come from the small codes catalogue; releases, services and environments, and every
 * count, from one scan of the span rollups grouped by the facet columns (a few hundred groups at 10M
 * spans). A query per facet and count scanned the same rows nine times, and ran beside the tools'
 * own scans: on two busy cores the tools list spent most of its time there.
 */
export async function listFacets(db: Executor, p: DashboardParams): Promise<Facets> {
  const t = rollupTables(p.window);
  const w = rollupWhere({ ...p, filters: {} }, SPAN_ROLLUP_DIMS);
  // One more than shown tells whether a list was cut. Lists are sorted in JS (code-unit order), the
  // same on both engines whatever the database's collation.
  const firstValues = (values: Iterable<string>) => [...new Set(values)].filter((v) => v !== "").sort().slice(0, FACET_MAX + 1);
  // The catalogue may hold thousands of codes: cut in SQL (which values a cut list keeps follows the engine's collation).
  const catalogue = async (column: string) =>
    firstValues(
      (await db.all<{ v: string }>(
        `SELECT DISTINCT ${column} AS v FROM codes WHERE project_id = ? AND last_seen >= ? AND first_seen < ? AND ${column} <> '' ORDER BY v LIMIT ${FACET_MAX + 1}`,
        [p.projectId, p.window.from, p.window.to],
      )).map((r) => r.v),
    );
  type GroupRow = Record<(typeof FACET_COLUMNS)[number][1], string> & { n: number };
  const columns = FACET_COLUMNS.map(([, column]) => column);
  const [codes, errorClasses, groups] = await Promise.all([
    catalogue("code"),
    catalogue("error_class"),
    db.all<GroupRow>(`SELECT ${columns.join(", ")}, sum(spans) AS n FROM ${t.spans} WHERE ${w.sql} GROUP BY ${columns.join(", ")}`, w.args),
  ]);
  const rollup = (column: "release" | "service" | "environment") => firstValues(groups.map((g) => g[column]));
  const lists = { codes, errorClasses, releases: rollup("release"), services: rollup("service"), environments: rollup("environment") };
  // Attempts per value in the window, whatever the other filters: the number each option shows.
  const countsOf = (column: (typeof columns)[number]) => {
    const counts = new Map<string, number>();
    for (const g of groups) if (g[column] !== "") counts.set(g[column], (counts.get(g[column]) ?? 0) + Number(g.n));
    return counts;
  };
  const truncated = Object.entries(lists).filter(([, l]) => l.length > FACET_MAX).map(([k]) => k);
  const cap = (l: string[]) => capList(l, FACET_MAX).values;
  const shown = { codes: cap(lists.codes), errorClasses: cap(lists.errorClasses), releases: cap(lists.releases), services: cap(lists.services), environments: cap(lists.environments), outcomes: [...OUTCOMES] };
  // Only the listed values' counts: a project with thousands of codes answers 200 of them.
  const countsFor = (facet: keyof typeof shown, all: Map<string, number>) => Object.fromEntries(shown[facet].filter((v) => all.has(v)).map((v) => [v, all.get(v)!]));
  return {
    ...shown,
    counts: Object.fromEntries(FACET_COLUMNS.map(([facet, column]) => [facet, countsFor(facet, countsOf(column))])) as Facets["counts"],
    truncated,
  };
}

/** One page of the tools table (one row per tool in the window, sorted, `q` matching the name), with the filter bar's facets. */
export async function listTools(db: Executor, p: DashboardParams & { sort: ToolSort; dir: "asc" | "desc"; page: PageQuery }): Promise<ToolsAnswer> {
  const [{ rows, delaysIgnoreFilters }, facets] = await Promise.all([toolStats(db, p), listFacets(db, p)]);
  const { rows: tools, page } = pageOf(sortToolRows(rows, p.sort, p.dir), (r) => r.tool, p.page);
  return { project: p.projectId, window: p.window, delaysIgnoreFilters, tools, page, facets };
}
