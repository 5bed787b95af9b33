import { index, int, text } from "./columns";
import { pgTableOf } from "./pg-table";
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
    attempts: sum(int("attempts").notNull()),
    calls: sum(int("calls").notNull()),
    retries: sum(int("retries").notNull()),
    failedAttempts: sum(int("failed_attempts").notNull()),
    declined: sum(int("declined").notNull()),
    refused: sum(int("refused").notNull()),
    errors: sum(int("errors").notNull()),
    firstStartedAt: min(int("first_started_at").notNull()),
    lastEndedAt: max(int("last_ended_at").notNull()),
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

export const runStatsPg = pgTableOf(runStats);
