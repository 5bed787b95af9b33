import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { projects } from "./projects";

/**
 * One row per (project, run_id); later run records for the same run merge into it. `agent` and
 * `started_at` are null while only records that do not carry them (a run's end event) have arrived.
 */
export const runs = sqliteTable(
  "runs",
  {
    pk: integer("pk").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    recordId: text("record_id").notNull(),
    runId: text("run_id").notNull(),
    agent: text("agent"),
    release: text("release"),
    service: text("service"),
    environment: text("environment"),
    sdkName: text("sdk_name"),
    sdkVersion: text("sdk_version"),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    state: text("state").notNull(),
    deadlineAt: integer("deadline_at"),
    maxToolAttempts: integer("max_tool_attempts"),
    error: text("error"),
    source: text("source").notNull().default("native"),
    receivedAt: integer("received_at").notNull(),
    /** Tool calls the model asked for that never got a result, as the runtime counted them; null when it did not track turns. */
    unansweredToolUses: integer("unanswered_tool_uses"),
  },
  (t) => [
    uniqueIndex("runs_project_run_uq").on(t.projectId, t.runId),
    index("runs_project_started_idx").on(t.projectId, t.startedAt),
    // The runs list's "left a tool call unanswered" filter and count read only these (few) runs.
    index("runs_project_unanswered_idx").on(t.projectId, t.runId).where(sql`${t.unansweredToolUses} > 0`),
  ],
);
