import { bigint, bigserial, index, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { projects } from "./projects";

/**
 * PostgreSQL twin of db/schema/tool-call-spans.ts. The flags (`retryable`, `permitted`,
 * `abandoned`) are smallint 0/1 rather than boolean: SQLite stores them as integers, and keeping the
 * same type on both engines lets one SQL text compare them (`= 1`) and bind them (0/1) everywhere.
 *
 * This declaration is what drizzle-kit diffs; the live table is rebuilt by the `partitions`
 * migration as a table RANGE partitioned by day on `started_at`, whose primary key is
 * (pk, started_at) and whose `spans_project_span_uq` is (project_id, span_id, started_at), because a
 * partitioned table's unique constraints must contain the partition key.
 */
export const toolCallSpans = pgTable(
  "tool_call_spans",
  {
    pk: bigserial("pk", { mode: "number" }).primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    spanId: text("span_id").notNull(),
    traceId: text("trace_id"),
    parentSpanId: text("parent_span_id"),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    toolVersion: text("tool_version"),
    release: text("release"),
    service: text("service"),
    environment: text("environment"),
    sdkName: text("sdk_name"),
    sdkVersion: text("sdk_version"),
    attempt: bigint("attempt", { mode: "number" }),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    endedAt: bigint("ended_at", { mode: "number" }).notNull(),
    outcome: text("outcome"),
    code: text("code"),
    errorClass: text("error_class"),
    retryable: smallint("retryable"),
    retryAfterMs: bigint("retry_after_ms", { mode: "number" }),
    backoffMs: bigint("backoff_ms", { mode: "number" }),
    decision: text("decision"),
    permitted: smallint("permitted"),
    abandoned: smallint("abandoned"),
    message: text("message"),
    source: text("source").notNull().default("native"),
    receivedAt: bigint("received_at", { mode: "number" }).notNull(),
    /** Comma-separated names of the fields Faultline derived rather than read from the source (e.g. `attempt`). */
    derived: text("derived"),
    argsHash: text("args_hash"),
    afterError: text("after_error"),
    startedSubNs: bigint("started_sub_ns", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("spans_project_span_uq").on(t.projectId, t.spanId),
    index("spans_project_run_idx").on(t.projectId, t.runId, t.startedAt),
    index("spans_project_tool_time_idx").on(t.projectId, t.tool, t.startedAt),
    index("spans_project_code_time_idx").on(t.projectId, t.code, t.startedAt).where(sql`${t.code} IS NOT NULL`),
    // The search box finds a call by its id (exact or prefix) within a project.
    index("spans_project_call_idx").on(t.projectId, t.callId),
  ],
);
