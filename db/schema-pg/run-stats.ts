import { index, text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/run-stats.ts. */
export const runStats = rollupTable(
  "run_stats",
  {
    projectId: text("project_id").notNull(),
    runId: text("run_id").notNull(),
    attempts: int("attempts").notNull(),
    calls: int("calls").notNull(),
    retries: int("retries").notNull(),
    failedAttempts: int("failed_attempts").notNull(),
    declined: int("declined").notNull(),
    refused: int("refused").notNull(),
    errors: int("errors").notNull(),
    firstStartedAt: int("first_started_at").notNull(),
    lastEndedAt: int("last_ended_at").notNull(),
    agent: text("agent").notNull().default(""),
    release: text("release").notNull().default(""),
  },
  ["projectId", "runId"],
  (t) => [index("run_stats_project_started_idx").on(t.projectId, t.firstStartedAt)],
);
