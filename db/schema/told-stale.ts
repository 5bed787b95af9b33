import { int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * A project whose told counts changed since its drift findings were last computed (the model
 * behaviour rule reads them): ingest adds the row, the drift refresh removes it (in a statement of
 * its own) before the recompute reads the counts. Its own table, not a drift_state column, so ingest
 * never waits on a fold's lock.
 */
export const toldStale = table("told_stale", {
  projectId: text("project_id").primaryKey(),
  since: int("since").notNull(),
});

export const toldStalePg = pgTableOf(toldStale);
