import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Bucket upper bounds in ms; the last bucket catches everything above. */
export const DELAY_BUCKETS_MS = [
  0, 50, 100, 250, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
  1_800_000, 3_600_000, 86_400_000,
] as const;

/** Histograms of `retry_after` asked and backoff waited per period, for percentiles without raw scans. */
function delayHistogramTable<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      projectId: text("project_id").notNull(),
      hour: integer("hour").notNull(),
      tool: text("tool").notNull(),
      code: text("code").notNull(),
      release: text("release").notNull(),
      service: text("service").notNull(),
      /** 'retry_after' or 'backoff'. */
      kind: text("kind").notNull(),
      bucketMs: integer("bucket_ms").notNull(),
      count: integer("count").notNull(),
    },
    (t) => [primaryKey({ columns: [t.projectId, t.hour, t.tool, t.code, t.release, t.service, t.kind, t.bucketMs] })],
  );
}

export const delayHistogramsHourly = delayHistogramTable("delay_histograms_hourly");
export const delayHistograms6h = delayHistogramTable("delay_histograms_6h");
