import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Counters of tool-call spans per period, kept up to date in the ingest transaction so that charts
 * never scan raw spans. Unknown dimensions are stored as '' so that they take part in the key.
 * `hour` is the UTC start of the period. Two resolutions: hourly for windows up to two days, six-hourly
 * for longer ones (a week of hourly rows is ~90k at 1M spans, too many to group in 100 ms).
 */
function spanRollupTable<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      projectId: text("project_id").notNull(),
      hour: integer("hour").notNull(),
      tool: text("tool").notNull(),
      code: text("code").notNull(),
      outcome: text("outcome").notNull(),
      errorClass: text("error_class").notNull(),
      release: text("release").notNull(),
      service: text("service").notNull(),
      spans: integer("spans").notNull(),
      /** Spans with attempt = 1: one per call. */
      firstAttempts: integer("first_attempts").notNull(),
      /** Spans with attempt = 2: calls that needed at least one retry. */
      secondAttempts: integer("second_attempts").notNull(),
      /** Spans with attempt > 1. */
      retryAttempts: integer("retry_attempts").notNull(),
      /** Spans whose source gave no attempt number; each is counted as a call of its own. */
      unnumbered: integer("unnumbered").notNull().default(0),
      maxAttempt: integer("max_attempt").notNull(),
      retryAfterCount: integer("retry_after_count").notNull(),
      retryAfterSumMs: integer("retry_after_sum_ms").notNull(),
      backoffCount: integer("backoff_count").notNull(),
      backoffSumMs: integer("backoff_sum_ms").notNull(),
      failedClosed: integer("failed_closed").notNull(),
      durationSumMs: integer("duration_sum_ms").notNull(),
    },
    // The period-first key serves every windowed read; no (tool, …) index beside it, because SQLite
    // would pick it for windowed GROUP BYs and look up every row (environment.md's planner trap).
    (t) => [primaryKey({ columns: [t.projectId, t.hour, t.tool, t.code, t.outcome, t.errorClass, t.release, t.service] })],
  );
}

export const spanRollupsHourly = spanRollupTable("span_rollups_hourly");
export const spanRollups6h = spanRollupTable("span_rollups_6h");
