import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Hourly counters of tool-call spans, kept up to date in the ingest transaction so that charts never
 * scan raw spans. Unknown dimensions are stored as '' so that they take part in the key.
 */
export const spanRollupsHourly = sqliteTable(
  "span_rollups_hourly",
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
    maxAttempt: integer("max_attempt").notNull(),
    retryAfterCount: integer("retry_after_count").notNull(),
    retryAfterSumMs: integer("retry_after_sum_ms").notNull(),
    backoffCount: integer("backoff_count").notNull(),
    backoffSumMs: integer("backoff_sum_ms").notNull(),
    failedClosed: integer("failed_closed").notNull(),
    durationSumMs: integer("duration_sum_ms").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.projectId, t.hour, t.tool, t.code, t.outcome, t.errorClass, t.release, t.service],
    }),
    index("span_rollups_project_tool_hour_idx").on(t.projectId, t.tool, t.hour),
  ],
);
