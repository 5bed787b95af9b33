import { int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * How far drift has read the raw tables of a project (`pk` watermarks), so that a refresh only
 * folds in rows that arrived since the last one.
 */
export const driftState = table("drift_state", {
  projectId: text("project_id").primaryKey(),
  spanWatermark: int("span_watermark").notNull().default(0),
  errorWatermark: int("error_watermark").notNull().default(0),
  refreshedAt: int("refreshed_at").notNull().default(0),
  findingsComputedAt: int("findings_computed_at"),
});

export const driftStatePg = pgTableOf(driftState);
