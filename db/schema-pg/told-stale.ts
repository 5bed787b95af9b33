import { pgTable, text } from "drizzle-orm/pg-core";
import { int } from "./int";

/** PostgreSQL twin of db/schema/told-stale.ts. */
export const toldStale = pgTable("told_stale", {
  projectId: text("project_id").primaryKey(),
  since: int("since").notNull(),
});
