import { text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup } from "../rollups/define-rollup";

/**
 * Which tools each run called, kept at ingest: the runs list filters by tool through this (one row
 * per run and tool) instead of collecting run ids from every span of a busy tool. Keys only: a
 * second sighting changes nothing.
 */
export const runToolsRollup = defineRollup({
  tables: { all: { name: "run_tools" } },
  keys: {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    runId: text("run_id").notNull(),
  },
  values: {},
});

export const runTools = runToolsRollup.tables.all;

export const runToolsPg = pgTableOf(runTools);
