import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How far drift has read the raw tables of a project (`pk` watermarks), so that a refresh only
 * folds in rows that arrived since the last one.
 */
export const driftState = sqliteTable("drift_state", {
  projectId: text("project_id").primaryKey(),
  spanWatermark: integer("span_watermark").notNull().default(0),
  errorWatermark: integer("error_watermark").notNull().default(0),
  refreshedAt: integer("refreshed_at").notNull().default(0),
  findingsComputedAt: integer("findings_computed_at"),
});
