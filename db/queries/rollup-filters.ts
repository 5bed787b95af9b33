import { getTableName } from "drizzle-orm";
import type { DashboardParamsShape } from "@/lib/contracts/filters";
import type { Executor } from "../client";
import type { RollupRow } from "../rollups/define-rollup";
import { SIX_HOURS_MS } from "../rollups/periods";
import { attemptCounts } from "../schema/attempt-counts";
import { codeCatalogue } from "../schema/codes";
import { DELAY_BUCKETS_MS, delayHistograms } from "../schema/delay-histograms";
import { spanRollups } from "../schema/span-rollups";

/** Stored rows of the rollups the dashboard reads; read rows pick their columns from these. */
export type SpanRollupRow = RollupRow<typeof spanRollups>;
export type DelayHistogramRow = RollupRow<typeof delayHistograms>;
export type AttemptCountRow = RollupRow<typeof attemptCounts>;
export type CodeCatalogueRow = RollupRow<typeof codeCatalogue>;

/** The narrowing filters of a dashboard read; unknown dimensions are stored (and matched) as ''. */
export interface RollupFilters {
  tool?: string;
  code?: string;
  outcome?: string;
  errorClass?: string;
  release?: string;
  service?: string;
  environment?: string;
}

export type DashboardParams = DashboardParamsShape;

const COLUMNS: Record<keyof RollupFilters, string> = {
  tool: "tool",
  code: "code",
  outcome: "outcome",
  errorClass: "error_class",
  release: "release",
  service: "service",
  environment: "environment",
};

/**
 * WHERE clause for an hourly rollup table. `dims` lists the filter dimensions the table has; the
 * others are skipped (and reported by the caller). The project+hour prefix matches the primary key.
 */
export function rollupWhere(
  p: DashboardParams,
  dims: readonly (keyof RollupFilters)[],
  alias = "",
): { sql: string; args: (string | number)[]; ignored: (keyof RollupFilters)[] } {
  const a = alias ? `${alias}.` : "";
  const parts = [`${a}project_id = ?`, `${a}hour >= ?`, `${a}hour < ?`];
  const args: (string | number)[] = [p.projectId, p.window.from, p.window.to];
  const ignored: (keyof RollupFilters)[] = [];
  for (const key of Object.keys(COLUMNS) as (keyof RollupFilters)[]) {
    const value = p.filters[key];
    if (value === undefined) continue;
    if (!dims.includes(key)) {
      ignored.push(key);
      continue;
    }
    parts.push(`${a}${COLUMNS[key]} = ?`);
    args.push(value);
  }
  return { sql: parts.join(" AND "), args, ignored };
}

const HOURLY = {
  spans: getTableName(spanRollups.tables.hourly),
  delays: getTableName(delayHistograms.tables.hourly),
  attempts: getTableName(attemptCounts.tables.hourly),
};
const SIX_HOURLY = {
  spans: getTableName(spanRollups.tables.sixHourly),
  delays: getTableName(delayHistograms.tables.sixHourly),
  attempts: getTableName(attemptCounts.tables.sixHourly),
};

/**
 * The rollup tables a window reads: the six-hourly ones when the window and its buckets fall on
 * six-hour boundaries (exact then, and ~4x fewer rows), else the hourly ones.
 */
export function rollupTables(window: DashboardParams["window"]): { spans: string; delays: string; attempts: string } {
  const coarse = window.stepMs % SIX_HOURS_MS === 0 && window.from % SIX_HOURS_MS === 0 && window.to % SIX_HOURS_MS === 0;
  return coarse ? SIX_HOURLY : HOURLY;
}

export const SPAN_ROLLUP_DIMS = ["tool", "code", "outcome", "errorClass", "release", "service", "environment"] as const;
export const DELAY_DIMS = ["tool", "code", "release", "service", "environment"] as const;
export const ATTEMPT_DIMS = ["tool", "release", "service", "environment"] as const;

/**
 * A percentile from bucket counts keyed by upper bound: the upper bound of the bucket holding the
 * nearest-rank sample. Reporting the bound (not an interpolation) keeps common delays exact — 1 s,
 * 2 s, 30 s and 1 h are bucket bounds — and otherwise errs high, never low. The last bucket also
 * holds values above its bound; those report the bound.
 */
export function histogramPercentile(counts: Map<number, number>, q: number): number | null {
  let total = 0;
  for (const c of counts.values()) total += c;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bound of DELAY_BUCKETS_MS) {
    seen += counts.get(bound) ?? 0;
    if (seen >= rank) return bound;
  }
  return DELAY_BUCKETS_MS[DELAY_BUCKETS_MS.length - 1]!;
}

export const ratio = (n: number, d: number): number | null => (d > 0 ? n / d : null);

/** Whether the project ever received a span (the rollups are kept for every stored span). */
export async function projectHasData(db: Executor, projectId: string): Promise<boolean> {
  return (await db.get<{ one: number }>(`SELECT 1 AS one FROM ${HOURLY.spans} WHERE project_id = ? LIMIT 1`, [projectId])) !== undefined;
}

/**
 * Sorts table rows by one column: nulls (no data) always last whatever the direction, ties broken
 * by the row's name so the order is stable.
 */
export function sortRows<R>(rows: R[], value: (r: R) => number | string | null, dir: "asc" | "desc", name: (r: R) => string): R[] {
  const sign = dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
    } else if (va !== vb) {
      return sign * (typeof va === "string" ? va.localeCompare(vb as string) : va - (vb as number));
    }
    return name(a).localeCompare(name(b));
  });
}
