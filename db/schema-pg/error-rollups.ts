import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/error-rollups.ts: hourly counters of final tool errors. */
export const errorRollupsHourly = rollupTable(
  "error_rollups_hourly",
  {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    errorClass: text("error_class").notNull(),
    decision: text("decision").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    environment: text("environment").notNull(),
    errors: int("errors").notNull(),
    attemptsSum: int("attempts_sum").notNull(),
    retryableCount: int("retryable_count").notNull(),
  },
  ["projectId", "hour", "tool", "code", "errorClass", "decision", "release", "service", "environment"],
);
