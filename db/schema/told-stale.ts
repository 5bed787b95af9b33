import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A project whose told counts changed since its drift findings were last computed (the model
 * behaviour rule reads them): ingest adds the row, the drift refresh removes it (in a statement of
 * its own) before the recompute reads the counts. Its own table, not a drift_state column, so ingest
 * never waits on a fold's lock.
 */
export const toldStale = sqliteTable("told_stale", {
  projectId: text("project_id").primaryKey(),
  since: integer("since").notNull(),
});
