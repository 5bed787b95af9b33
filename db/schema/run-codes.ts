import { index, int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, sum } from "../rollups/define-rollup";

/**
 * Which codes each run met, per tool, kept at ingest from spans and final errors: the runs list
 * filters by code through this (a few rows per failing run) instead of probing every span of every
 * run it walks. `count` is the spans and final errors behind the row, so a re-classification moves
 * it like any counter and a row left at zero is deleted (db/classify/prune-run-codes.ts).
 */
export const runCodesRollup = defineRollup({
  tables: { all: { name: "run_codes" } },
  keys: {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    runId: text("run_id").notNull(),
    tool: text("tool").notNull(),
  },
  values: {
    count: sum(int("count").notNull()),
  },
  // A run's codes in one seek: the runs list probes a run for any of a filter's codes (a text such as
  // "failed" names a dozen), and retention deletes a run's rows by its id.
  indexes: (t) => [index("run_codes_project_run_idx").on(t.projectId, t.runId)],
});

export const runCodes = runCodesRollup.tables.all;

export const runCodesPg = pgTableOf(runCodes);
