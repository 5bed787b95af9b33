import { flag, hexBytes, index, int, serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { sql } from "drizzle-orm";
import { projects } from "./projects";

/** One attempt of one tool call. Nullable columns are "unknown": some sources do not carry them. */
export const toolCallSpans = table(
  "tool_call_spans",
  {
    pk: serial("pk"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    spanId: text("span_id").notNull(),
    traceId: text("trace_id"),
    parentSpanId: text("parent_span_id"),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    attempt: int("attempt"),
    startedAt: int("started_at").notNull(),
    endedAt: int("ended_at").notNull(),
    outcome: text("outcome"),
    code: text("code"),
    errorClass: text("error_class"),
    retryable: flag("retryable"),
    retryAfterMs: int("retry_after_ms"),
    backoffMs: int("backoff_ms"),
    decision: text("decision"),
    permitted: flag("permitted"),
    abandoned: flag("abandoned"),
    message: text("message"),
    receivedAt: int("received_at").notNull(),
    /** Comma-separated names of the fields Faultline derived rather than read from the source (e.g. `attempt`). */
    derived: text("derived"),
    /** Hash of the call's canonicalised arguments (lib/contracts/args-hash.ts), stored as its bytes; the arguments are never stored. */
    argsHash: hexBytes("args_hash"),
    /** The call id of the surfaced error this call answers, when the runtime linked it; '' when it said none; null when unknown. */
    afterError: text("after_error"),
    /** Nanoseconds past `started_at` (0–999 999) for sources that carry them (OTLP); null otherwise. Orders attempts started within one millisecond. */
    startedSubNs: int("started_sub_ns"),
    /**
     * The span's `tool_version`, `release`, `service`, `environment`, `sdk_name`, `sdk_version` and
     * `source`, stored once in `span_emitters`. Not a declared foreign key: on PostgreSQL each would
     * cost a trigger per inserted row, and ingest takes the id from that table in the same transaction.
     */
    emitterId: int("emitter_id").notNull(),
  },
  (t) => [
    uniqueIndex("spans_project_span_uq").on(t.projectId, t.spanId),
    // A run's spans by equality only (the timeline sorts the run's rows itself): without a timestamp the
    // key repeats for every span of a run, which PostgreSQL's B-tree deduplication stores once.
    index("spans_project_run_idx").on(t.projectId, t.runId),
    index("spans_project_tool_time_idx").on(t.projectId, t.tool, t.startedAt),
    index("spans_project_code_time_idx").on(t.projectId, t.code, t.startedAt).where(sql`${t.code} IS NOT NULL`),
    // The failures that spent an SLO's budget (db/slos/slo-counts.ts) without reading its window's other calls.
    index("spans_project_failed_time_idx").on(t.projectId, t.tool, t.startedAt).where(sql`${t.outcome} IS NOT NULL AND ${t.outcome} NOT IN ('ok', 'cancelled')`),
    // The search box finds a call by its id (exact or prefix) within a project.
    index("spans_project_call_idx").on(t.projectId, t.callId),
  ],
);

/**
 * What drizzle-kit diffs for PostgreSQL; the live table is rebuilt by the `partitions` migration as a
 * table RANGE partitioned by day on `started_at`, whose primary key is (pk, started_at) and whose
 * `spans_project_span_uq` is (project_id, span_id, started_at): a partitioned table's unique
 * constraints must contain the partition key. (`tool_errors` likewise, on `occurred_at`.)
 */
export const toolCallSpansPg = pgTableOf(toolCallSpans);
