import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";
import { int } from "./int";

/** PostgreSQL twin of db/schema/told-steps.ts. */
export const toldSteps = pgTable(
  "told_steps",
  {
    projectId: text("project_id").notNull(),
    eventId: text("event_id").notNull(),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    release: text("release").notNull(),
    shape: text("shape").notNull(),
    step: text("step").$type<ToldStep>().notNull(),
    runState: text("run_state").$type<ToldRunState>().notNull(),
    calls: int("calls").notNull(),
    nextCallId: text("next_call_id"),
    nextTool: text("next_tool"),
    nextOutcome: text("next_outcome"),
    nextCode: text("next_code"),
    occurredAt: int("occurred_at").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "told_steps_pk", columns: [t.projectId, t.eventId] }),
    index("told_steps_project_run_idx").on(t.projectId, t.runId),
    index("told_steps_project_code_idx").on(t.projectId, t.code, t.occurredAt),
    index("told_steps_project_tool_idx").on(t.projectId, t.tool, t.occurredAt),
  ],
);
