import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

// PostgreSQL twins of db/schema/delay-histograms.ts.
const columns = () => ({
  projectId: text("project_id").notNull(),
  hour: int("hour").notNull(),
  tool: text("tool").notNull(),
  code: text("code").notNull(),
  release: text("release").notNull(),
  service: text("service").notNull(),
  environment: text("environment").notNull(),
  kind: text("kind").notNull(),
  bucketMs: int("bucket_ms").notNull(),
  count: int("count").notNull(),
});
const keys = ["projectId", "hour", "tool", "code", "release", "service", "environment", "kind", "bucketMs"] as const;

/** Hourly delay histograms. */
export const delayHistogramsHourly = rollupTable("delay_histograms_hourly", columns(), keys);
/** Six-hourly delay histograms. */
export const delayHistograms6h = rollupTable("delay_histograms_6h", columns(), keys);
