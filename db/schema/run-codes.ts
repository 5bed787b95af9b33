import { int, text } from "./columns";
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
});

export const runCodes = runCodesRollup.tables.all;

export const runCodesPg = pgTableOf(runCodes);
