import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

// PostgreSQL twins of db/schema/span-rollups.ts: the keys, then the values, in the same order.
const columns = () => ({
  projectId: text("project_id").notNull(),
  hour: int("hour").notNull(),
  tool: text("tool").notNull(),
  code: text("code").notNull(),
  outcome: text("outcome").notNull(),
  errorClass: text("error_class").notNull(),
  release: text("release").notNull(),
  service: text("service").notNull(),
  environment: text("environment").notNull(),
  spans: int("spans").notNull(),
  firstAttempts: int("first_attempts").notNull(),
  secondAttempts: int("second_attempts").notNull(),
  retryAttempts: int("retry_attempts").notNull(),
  unnumbered: int("unnumbered").notNull().default(0),
  maxAttempt: int("max_attempt").notNull(),
  retryAfterCount: int("retry_after_count").notNull(),
  retryAfterSumMs: int("retry_after_sum_ms").notNull(),
  backoffCount: int("backoff_count").notNull(),
  backoffSumMs: int("backoff_sum_ms").notNull(),
  failedClosed: int("failed_closed").notNull(),
  durationSumMs: int("duration_sum_ms").notNull(),
});
const keys = ["projectId", "hour", "tool", "code", "outcome", "errorClass", "release", "service", "environment"] as const;

/** Hourly span counters. */
export const spanRollupsHourly = rollupTable("span_rollups_hourly", columns(), keys);
/** Six-hourly span counters. */
export const spanRollups6h = rollupTable("span_rollups_6h", columns(), keys);
