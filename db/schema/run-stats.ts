import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Per-run counters maintained at ingest from spans and tool errors. It exists even when the run
 * record never arrived, which is how the runs list shows such runs as incomplete.
 */
export const runStats = sqliteTable(
  "run_stats",
  {
    projectId: text("project_id").notNull(),
    runId: text("run_id").notNull(),
    attempts: integer("attempts").notNull(),
    calls: integer("calls").notNull(),
    retries: integer("retries").notNull(),
    failedAttempts: integer("failed_attempts").notNull(),
    declined: integer("declined").notNull(),
    refused: integer("refused").notNull(),
    errors: integer("errors").notNull(),
    firstStartedAt: integer("first_started_at").notNull(),
    lastEndedAt: integer("last_ended_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.runId] }),
    index("run_stats_project_started_idx").on(t.projectId, t.firstStartedAt),
  ],
);
