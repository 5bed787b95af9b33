import { sql } from "drizzle-orm";
import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";

/**
 * One row per (project, run_id); later run records for the same run merge into it. `agent` and
 * `started_at` are null while only records that do not carry them (a run's end event) have arrived.
 */
export const runs = table(
  "runs",
  {
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
    startedAt: int("started_at"),
    endedAt: int("ended_at"),
    state: text("state").notNull(),
    deadlineAt: int("deadline_at"),
    maxToolAttempts: int("max_tool_attempts"),
    error: text("error"),
    source: text("source").notNull().default("native"),
    receivedAt: int("received_at").notNull(),
    /** Tool calls the model asked for that never got a result, as the runtime counted them; null when it did not track turns. */
    unansweredToolUses: int("unanswered_tool_uses"),
    /** The OpenTelemetry trace and span of the run's agent span (OTLP ingest); null for sources without them. */
    traceId: text("trace_id"),
    spanId: text("span_id"),
  },
  (t) => [
    // Keyed by (project, run_id), without a serial: nothing reads one, and on PostgreSQL a bigserial and
    // its index cost about 6 bytes per span. No (project, started_at) index: every read finds a run by
    // its id, and the runs list walks run_stats' started index (docs/ingest-performance.md, "Fifth round").
    primaryKey({ name: "runs_pk", columns: [t.projectId, t.runId] }),
    // The runs list's "left a tool call unanswered" filter and count read only these (few) runs.
    index("runs_project_unanswered_idx").on(t.projectId, t.runId).where(sql`${t.unansweredToolUses} > 0`),
  ],
);

export const runsPg = pgTableOf(runs);
