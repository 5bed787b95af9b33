import { sql } from "drizzle-orm";
import { flag, index, int, serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";

/** The final error of one tool call and what the model was told. */
export const toolErrors = table(
  "tool_errors",
  {
    pk: serial("pk"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    eventId: text("event_id").notNull(),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    toolVersion: text("tool_version"),
    release: text("release"),
    service: text("service"),
    environment: text("environment"),
    code: text("code"),
    errorClass: text("error_class"),
    retryable: flag("retryable"),
    attempts: int("attempts"),
    decision: text("decision"),
    told: text("told"),
    occurredAt: int("occurred_at").notNull(),
    source: text("source").notNull().default("native"),
    receivedAt: int("received_at").notNull(),
    /** Comma-separated names of the fields Faultline derived rather than read from the source (e.g. `attempt`). */
    derived: text("derived"),
    /** The wording experiment the told text came from (docs/experiments.md); null outside experiments. */
    experiment: text("experiment"),
    /** The experiment's variant this run was assigned; null exactly when `experiment` is. */
    variant: text("variant"),
  },
  (t) => [
    uniqueIndex("tool_errors_project_event_uq").on(t.projectId, t.eventId),
    index("tool_errors_project_run_idx").on(t.projectId, t.runId),
    index("tool_errors_project_time_idx").on(t.projectId, t.occurredAt),
    index("tool_errors_project_experiment_idx").on(t.projectId, t.experiment, t.variant).where(sql`${t.experiment} IS NOT NULL`),
  ],
);

export const toolErrorsPg = pgTableOf(toolErrors);
