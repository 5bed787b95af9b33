import { index, integer, text } from "drizzle-orm/sqlite-core";
import { defineRollup, max, min, sum } from "../rollups/define-rollup";

/**
 * Per-run counters maintained at ingest from spans and tool errors. It exists even when the run
 * record never arrived, which is how the runs list shows such runs as incomplete.
 */
export const runStatsRollup = defineRollup({
  tables: { all: { name: "run_stats" } },
  keys: {
    projectId: text("project_id").notNull(),
    runId: text("run_id").notNull(),
  },
  values: {
    attempts: sum(integer("attempts").notNull()),
    calls: sum(integer("calls").notNull()),
    retries: sum(integer("retries").notNull()),
    failedAttempts: sum(integer("failed_attempts").notNull()),
    declined: sum(integer("declined").notNull()),
    refused: sum(integer("refused").notNull()),
    errors: sum(integer("errors").notNull()),
    firstStartedAt: min(integer("first_started_at").notNull()),
    lastEndedAt: max(integer("last_ended_at").notNull()),
    // The agent and release the run's spans and errors name ('' when none does), for runs whose run
    // record never arrives (a kit ToolCallSpan file): the runs list falls back to them. Max-merged so a
    // named value wins over ''; a run's rows agree in practice, and where they do not, the greatest
    // in each engine's text order is kept (PostgreSQL's follows the database collation).
    agent: max(text("agent").notNull().default("")),
    release: max(text("release").notNull().default("")),
  },
  indexes: (t) => [index("run_stats_project_started_idx").on(t.projectId, t.firstStartedAt)],
});

export const runStats = runStatsRollup.tables.all;
