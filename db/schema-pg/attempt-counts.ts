import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

// PostgreSQL twins of db/schema/attempt-counts.ts.
const columns = () => ({
  projectId: text("project_id").notNull(),
  hour: int("hour").notNull(),
  tool: text("tool").notNull(),
  release: text("release").notNull(),
  service: text("service").notNull(),
  environment: text("environment").notNull(),
  attempt: int("attempt").notNull(),
  spans: int("spans").notNull(),
});
const keys = ["projectId", "hour", "tool", "release", "service", "environment", "attempt"] as const;

/** Hourly spans per attempt number. */
export const attemptCountsHourly = rollupTable("attempt_counts_hourly", columns(), keys);
/** Six-hourly spans per attempt number. */
export const attemptCounts6h = rollupTable("attempt_counts_6h", columns(), keys);
