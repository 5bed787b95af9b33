import { text } from "drizzle-orm/pg-core";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/run-tools.ts. */
export const runTools = rollupTable(
  "run_tools",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    runId: text("run_id").notNull(),
  },
  ["projectId", "tool", "runId"],
);
