import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, sum } from "../rollups/define-rollup";
import { HOUR_MS, SIX_HOURS_MS } from "../rollups/periods";

/** Bucket upper bounds in ms; the last bucket catches everything above. */
export const DELAY_BUCKETS_MS = [
  0, 50, 100, 250, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  1_800_000, 3_600_000, 86_400_000,
] as const;

/** The histogram bucket (upper bound) a delay falls in. */
export function delayBucket(ms: number): number {
  for (const bound of DELAY_BUCKETS_MS) if (ms <= bound) return bound;
  return DELAY_BUCKETS_MS[DELAY_BUCKETS_MS.length - 1]!;
}

/**
 * Histograms of `retry_after` asked and backoff waited per period, for percentiles without raw
 * scans: the bucket bound is part of the key, its count sums.
 */
export const delayHistograms = defineRollup({
  tables: {
    hourly: { name: "delay_histograms_hourly", periodMs: HOUR_MS },
    sixHourly: { name: "delay_histograms_6h", periodMs: SIX_HOURS_MS },
  },
  period: "hour",
  keys: {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    environment: text("environment").notNull(),
    /** 'retry_after' or 'backoff'. */
    kind: text("kind").notNull(),
    /** Upper bound of the bucket, one of DELAY_BUCKETS_MS. */
    bucketMs: int("bucket_ms").notNull(),
  },
  values: {
    count: sum(int("count").notNull()),
  },
});

export const delayHistogramsHourly = delayHistograms.tables.hourly;
export const delayHistograms6h = delayHistograms.tables.sixHourly;

export const delayHistogramsHourlyPg = pgTableOf(delayHistogramsHourly);
export const delayHistograms6hPg = pgTableOf(delayHistograms6h);
