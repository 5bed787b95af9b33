import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";
import { defineRollup, max, min, sum } from "../rollups/define-rollup";

/**
 * Surfaced errors per project × tool × code × release × told-text shape × next step × run state ×
 * calls until recovery, kept at ingest with the other rollups. A reclassified error moves by a
 * delta (−1 on its old key, +1 on its new one), so a key may hold 0; reads skip those.
 */
export const toldStepCountsRollup = defineRollup({
  tables: { all: { name: "told_step_counts" } },
  keys: {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    release: text("release").notNull(),
    shape: text("shape").notNull(),
    step: text("step").$type<ToldStep>().notNull(),
    runState: text("run_state").$type<ToldRunState>().notNull(),
    calls: int("calls").notNull(),
  },
  values: {
    errors: sum(int("errors").notNull()),
    firstSeen: min(int("first_seen").notNull()),
    lastSeen: max(int("last_seen").notNull()),
  },
});

export const toldStepCounts = toldStepCountsRollup.tables.all;

export const toldStepCountsPg = pgTableOf(toldStepCounts);
