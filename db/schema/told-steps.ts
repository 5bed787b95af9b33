import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";

/**
 * The next step of every error surfaced to the model (docs/after-told.md), one row per final tool
 * error, reclassified at ingest whenever its run gets new rows (db/ingest/told-steps.ts). The
 * counts in `told_step_counts` are kept equal to these rows by deltas; retention deletes the rows
 * with their runs, the counts keep the history.
 */
export const toldSteps = table(
  "told_steps",
  {
    projectId: text("project_id").notNull(),
    /** The tool error's event id. */
    eventId: text("event_id").notNull(),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    /** '' when the error carried no code. */
    code: text("code").notNull(),
    /** lib/told/surfaced.ts `toldRelease`: the agent release, else the tool version; '' when unknown. */
    release: text("release").notNull(),
    /** The told text's shape (lib/drift/told-shape.ts). */
    shape: text("shape").notNull(),
    step: text("step").$type<ToldStep>().notNull(),
    runState: text("run_state").$type<ToldRunState>().notNull(),
    /** Calls until recovery for recovered and replaced; 0 otherwise. */
    calls: int("calls").notNull(),
    /** The call that decided the step; null for gave up, run failed and pending. */
    nextCallId: text("next_call_id"),
    nextTool: text("next_tool"),
    nextOutcome: text("next_outcome"),
    nextCode: text("next_code"),
    occurredAt: int("occurred_at").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.eventId] }),
    index("told_steps_project_run_idx").on(t.projectId, t.runId),
    index("told_steps_project_code_idx").on(t.projectId, t.code, t.occurredAt),
    index("told_steps_project_tool_idx").on(t.projectId, t.tool, t.occurredAt),
  ],
);

export const toldStepsPg = pgTableOf(toldSteps);
