import { z } from "zod";

/** Preset time ranges of the dashboard, newest data last. */
export const RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000, "90d": 90 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES;
export const RANGE_KEYS = Object.keys(RANGES) as RangeKey[];
/** A day: the demo and a new deployment have about a day of data, and a day still shows hourly bars. */
export const DEFAULT_RANGE: RangeKey = "24h";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const text = z.string().min(1).max(512);
const epochMs = z.coerce.number().int().min(0).max(8_640_000_000_000);

/** The query string every dashboard read shares: project, time range and the narrowing filters. */
export const dashboardQuerySchema = z.object({
  project: z.string().min(1).max(100).default("default"),
  range: z.enum(RANGE_KEYS as [RangeKey, ...RangeKey[]]).default(DEFAULT_RANGE),
  /** Absolute window (epoch ms); both given, they win over `range`. */
  from: epochMs.optional(),
  to: epochMs.optional(),
  tool: text.optional(),
  code: text.optional(),
  outcome: text.optional(),
  error_class: text.optional(),
  release: text.optional(),
  service: text.optional(),
  environment: text.optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** The names of the narrowing filters, in the order the filter bar shows them. */
export const FILTER_KEYS = ["code", "outcome", "error_class", "release", "service", "environment"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The resolved window every answer echoes, so charts fill buckets exactly as the server grouped them. */
export const windowSchema = z.object({ from: z.number(), to: z.number(), stepMs: z.number() });
export type TimeWindow = z.infer<typeof windowSchema>;

/**
 * Resolves a query to whole buckets of the rollups. A relative range ends at the end of the
 * current hour so that the newest partial hour is included. Buckets are 1 h up to 2 days, 6 h up to
 * 14 days, else 1 day — about 30 to 170 bars whatever the range.
 */
export function resolveWindow(q: Pick<DashboardQuery, "range" | "from" | "to">, now: number): TimeWindow {
  let from: number;
  let to: number;
  if (q.from !== undefined && q.to !== undefined && q.to > q.from) {
    from = Math.floor(q.from / HOUR_MS) * HOUR_MS;
    to = Math.ceil(q.to / HOUR_MS) * HOUR_MS;
  } else {
    to = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
    from = to - RANGES[q.range];
  }
  const span = to - from;
  const stepMs = span <= 2 * DAY_MS ? HOUR_MS : span <= 14 * DAY_MS ? 6 * HOUR_MS : DAY_MS;
  // Align both ends to the step so buckets are stable while the window slides and whole buckets
  // can be read from the six-hourly rollups; the not-yet-happened end of the last bucket is a gap.
  from = Math.floor(from / stepMs) * stepMs;
  to = Math.ceil(to / stepMs) * stepMs;
  return { from, to, stepMs };
}

/** Sort direction shared by tables. */
export const sortDirSchema = z.enum(["asc", "desc"]).default("desc");

/** A parsed dashboard query as the db/ query functions take it. */
export interface DashboardParamsShape {
  projectId: string;
  window: TimeWindow;
  filters: { tool?: string; code?: string; outcome?: string; errorClass?: string; release?: string; service?: string; environment?: string };
}

export function toDashboardParams(q: DashboardQuery, now: number): DashboardParamsShape {
  const filters: DashboardParamsShape["filters"] = {};
  if (q.tool !== undefined) filters.tool = q.tool;
  if (q.code !== undefined) filters.code = q.code;
  if (q.outcome !== undefined) filters.outcome = q.outcome;
  if (q.error_class !== undefined) filters.errorClass = q.error_class;
  if (q.release !== undefined) filters.release = q.release;
  if (q.service !== undefined) filters.service = q.service;
  if (q.environment !== undefined) filters.environment = q.environment;
  return { projectId: q.project, window: resolveWindow(q, now), filters };
}
