import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Which tools each run called, kept at ingest: the runs list filters by tool through this (one row
 * per run and tool) instead of collecting run ids from every span of a busy tool.
 */
export const runTools = sqliteTable(
  "run_tools",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    runId: text("run_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tool, t.runId] })],
);
