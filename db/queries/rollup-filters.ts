import type Database from "better-sqlite3";
import type { DashboardParamsShape } from "@/lib/contracts/filters";
import { DELAY_BUCKETS_MS } from "../schema/delay-histograms";

/** The narrowing filters of a dashboard read; unknown dimensions are stored (and matched) as ''. */
export interface RollupFilters {
  tool?: string;
  code?: string;
  outcome?: string;
  errorClass?: string;
  release?: string;
  service?: string;
}

export type DashboardParams = DashboardParamsShape;

const COLUMNS: Record<keyof RollupFilters, string> = {
  tool: "tool",
  code: "code",
  outcome: "outcome",
  errorClass: "error_class",
  release: "release",
  service: "service",
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

const SIX_HOURS_MS = 6 * 3_600_000;

/**
 * The rollup tables a window reads: the six-hourly ones when the window and its buckets fall on
 * six-hour boundaries (exact then, and ~4x fewer rows), else the hourly ones.
 */
export function rollupTables(window: DashboardParams["window"]): { spans: string; delays: string; attempts: string } {
  const coarse = window.stepMs % SIX_HOURS_MS === 0 && window.from % SIX_HOURS_MS === 0 && window.to % SIX_HOURS_MS === 0;
  return coarse
    ? { spans: "span_rollups_6h", delays: "delay_histograms_6h", attempts: "attempt_counts_6h" }
    : { spans: "span_rollups_hourly", delays: "delay_histograms_hourly", attempts: "attempt_counts_hourly" };
}

export const SPAN_ROLLUP_DIMS = ["tool", "code", "outcome", "errorClass", "release", "service"] as const;
export const DELAY_DIMS = ["tool", "code", "release", "service"] as const;
export const ATTEMPT_DIMS = ["tool", "release", "service"] as const;

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Prepared once per connection and SQL text: the dashboard's few query shapes repeat constantly. */
export function prepared(sqlite: Database.Database, sql: string): Database.Statement {
  let byText = cache.get(sqlite);
  if (!byText) cache.set(sqlite, (byText = new Map()));
  let st = byText.get(sql);
  if (!st) byText.set(sql, (st = sqlite.prepare(sql)));
  return st;
}

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
export function projectHasData(sqlite: Database.Database, projectId: string): boolean {
  return prepared(sqlite, "SELECT 1 FROM span_rollups_hourly WHERE project_id = ? LIMIT 1").get(projectId) !== undefined;
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
