import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, max, sum } from "../rollups/define-rollup";
import { HOUR_MS, SIX_HOURS_MS } from "../rollups/periods";

/**
 * Counters of tool-call spans per period, kept up to date in the ingest transaction so that charts
 * never scan raw spans. Unknown dimensions are stored as '' so that they take part in the key.
 * `hour` is the UTC start of the period. Two resolutions: hourly for windows up to two days, six-hourly
 * for longer ones (a week of hourly rows is ~90k at 1M spans, too many to group in 100 ms).
 * The period-first key serves every windowed read; no (tool, …) index beside it, because SQLite
 * would pick it for windowed GROUP BYs and look up every row (environment.md's planner trap).
 */
export const spanRollups = defineRollup({
  tables: {
    hourly: { name: "span_rollups_hourly", periodMs: HOUR_MS },
    sixHourly: { name: "span_rollups_6h", periodMs: SIX_HOURS_MS },
  },
  period: "hour",
  keys: {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    outcome: text("outcome").notNull(),
    errorClass: text("error_class").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    environment: text("environment").notNull(),
  },
  values: {
    spans: sum(int("spans").notNull()),
    /** Spans with attempt = 1: one per call. */
    firstAttempts: sum(int("first_attempts").notNull()),
    /** Spans with attempt = 2: calls that needed at least one retry. */
    secondAttempts: sum(int("second_attempts").notNull()),
    /** Spans with attempt > 1. */
    retryAttempts: sum(int("retry_attempts").notNull()),
    /** Spans whose source gave no attempt number; each is counted as a call of its own. */
    unnumbered: sum(int("unnumbered").notNull().default(0)),
    maxAttempt: max(int("max_attempt").notNull()),
    retryAfterCount: sum(int("retry_after_count").notNull()),
    retryAfterSumMs: sum(int("retry_after_sum_ms").notNull()),
    backoffCount: sum(int("backoff_count").notNull()),
    backoffSumMs: sum(int("backoff_sum_ms").notNull()),
    failedClosed: sum(int("failed_closed").notNull()),
    durationSumMs: sum(int("duration_sum_ms").notNull()),
  },
});

export const spanRollupsHourly = spanRollups.tables.hourly;
export const spanRollups6h = spanRollups.tables.sixHourly;

export const spanRollupsHourlyPg = pgTableOf(spanRollupsHourly);
export const spanRollups6hPg = pgTableOf(spanRollups6h);
