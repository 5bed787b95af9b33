import { sql } from "drizzle-orm";
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./projects";

/** PostgreSQL twin of db/schema/runs.ts. */
export const runs = pgTable(
  "runs",
  {
    pk: bigserial("pk", { mode: "number" }).primaryKey(),
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
    startedAt: bigint("started_at", { mode: "number" }),
    endedAt: bigint("ended_at", { mode: "number" }),
    state: text("state").notNull(),
    deadlineAt: bigint("deadline_at", { mode: "number" }),
    maxToolAttempts: bigint("max_tool_attempts", { mode: "number" }),
    error: text("error"),
    source: text("source").notNull().default("native"),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
    unansweredToolUses: bigint("unanswered_tool_uses", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("runs_project_run_uq").on(t.projectId, t.runId),
    index("runs_project_started_idx").on(t.projectId, t.startedAt),
    index("runs_project_unanswered_idx").on(t.projectId, t.runId).where(sql`${t.unansweredToolUses} > 0`),
  ],
);
