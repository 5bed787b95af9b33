import { bigint, bigserial, index, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./projects";

/**
 * PostgreSQL twin of db/schema/tool-errors.ts (`retryable` is smallint 0/1, see tool-call-spans.ts).
 * The `partitions` migration rebuilds it RANGE partitioned by day on `occurred_at`, with primary key
 * (pk, occurred_at) and `tool_errors_project_event_uq` on (project_id, event_id, occurred_at).
 */
export const toolErrors = pgTable(
  "tool_errors",
  {
    pk: bigserial("pk", { mode: "number" }).primaryKey(),
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
    retryable: smallint("retryable"),
    attempts: bigint("attempts", { mode: "number" }),
    decision: text("decision"),
    told: text("told"),
    occurredAt: bigint("occurred_at", { mode: "number" }).notNull(),
    source: text("source").notNull().default("native"),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
    /** Comma-separated names of the fields Faultline derived rather than read from the source (e.g. `attempt`). */
    derived: text("derived"),
  },
  (t) => [
    uniqueIndex("tool_errors_project_event_uq").on(t.projectId, t.eventId),
    index("tool_errors_project_run_idx").on(t.projectId, t.runId),
    index("tool_errors_project_time_idx").on(t.projectId, t.occurredAt),
  ],
);
