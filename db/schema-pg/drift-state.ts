import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/drift-state.ts. */
export const driftState = pgTable("drift_state", {
  projectId: text("project_id").primaryKey(),
  spanWatermark: bigint("span_watermark", { mode: "number" }).notNull().default(0),
  errorWatermark: bigint("error_watermark", { mode: "number" }).notNull().default(0),
  refreshedAt: bigint("refreshed_at", { mode: "number" }).notNull().default(0),
  findingsComputedAt: bigint("findings_computed_at", { mode: "number" }),
});
