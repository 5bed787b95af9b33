import type Database from "better-sqlite3";
import { least } from "../store/dialect-sql";
import type { Dialect } from "../store/types";
import { runs } from "../schema/runs";
import { toolCallSpans } from "../schema/tool-call-spans";
import { toolErrors } from "../schema/tool-errors";
import { errorFactInsert, factInsert } from "./fact-rows";
import { rowInsert } from "./row-insert";

// Raw statements: the ingest hot path runs ~4x faster than Drizzle's builder here (see
// ../shared/reference/environment.md §3b), and SQL stays inside db/. Column lists come from the
// Drizzle tables; the rollups' upserts are derived from their declarations (db/rollups).

/** Fields every row of a batch shares, bound from one object per batch. */
const CONTEXT = ["projectId", "receivedAt"] as const;

// On PostgreSQL spans and tool errors are partitioned by time, and a unique index of a partitioned
// table must contain the partition key: the conflict targets carry the time column there.
/** A tool-call span, stored once per (project, span id). */
export const spanInsert = rowInsert(
  toolCallSpans,
  CONTEXT,
  { sqlite: "ON CONFLICT (project_id, span_id) DO NOTHING", postgres: "ON CONFLICT (project_id, span_id, started_at) DO NOTHING" },
  "spanId",
);
/** A tool call's final error, stored once per (project, event id). */
export const toolErrorInsert = rowInsert(
  toolErrors,
  CONTEXT,
  { sqlite: "ON CONFLICT (project_id, event_id) DO NOTHING", postgres: "ON CONFLICT (project_id, event_id, occurred_at) DO NOTHING" },
  "eventId",
);

// A later record of the same run merges in; replaying the same record is a no-op (a duplicate),
// an older non-final record never overwrites a final state, and a record that does not carry a
// field (an end event has no agent or start) keeps the known value. The two-argument least() is
// NULL when either side is, hence the coalesce: the earliest known start wins.
const runMerge = (dialect: Dialect) => `ON CONFLICT (project_id, run_id) DO UPDATE SET
      record_id = excluded.record_id,
      agent = coalesce(excluded.agent, runs.agent),
      started_at = coalesce(${least(dialect, "runs.started_at", "excluded.started_at")}, runs.started_at, excluded.started_at),
      state = CASE WHEN excluded.ended_at IS NOT NULL OR runs.ended_at IS NULL THEN excluded.state ELSE runs.state END,
      ended_at = coalesce(excluded.ended_at, runs.ended_at),
      release = coalesce(excluded.release, runs.release),
      service = coalesce(excluded.service, runs.service),
      environment = coalesce(excluded.environment, runs.environment),
      deadline_at = coalesce(excluded.deadline_at, runs.deadline_at),
      max_tool_attempts = coalesce(excluded.max_tool_attempts, runs.max_tool_attempts),
      error = coalesce(excluded.error, runs.error),
      unanswered_tool_uses = coalesce(excluded.unanswered_tool_uses, runs.unanswered_tool_uses),
      trace_id = coalesce(excluded.trace_id, runs.trace_id),
      span_id = coalesce(excluded.span_id, runs.span_id)
    WHERE runs.record_id <> excluded.record_id`;
/** A run record, merged into the run's one row; it counts as written when it changed the row. */
export const runUpsert = rowInsert(runs, CONTEXT, { sqlite: runMerge("sqlite"), postgres: runMerge("postgres") }, "runId");

/** The raw-row statements of one SQLite connection. */
export interface IngestStatements {
  insertSpan: Database.Statement;
  insertToolError: Database.Statement;
  upsertRun: Database.Statement;
  insertFact: Database.Statement;
  insertErrorFact: Database.Statement;
}

const cache = new WeakMap<Database.Database, IngestStatements>();

/** The raw-row statements of a SQLite connection, prepared once. */
export function ingestStatements(sqlite: Database.Database): IngestStatements {
  let statements = cache.get(sqlite);
  if (!statements) {
    statements = {
      insertSpan: sqlite.prepare(spanInsert.sql),
      insertToolError: sqlite.prepare(toolErrorInsert.sql),
      upsertRun: sqlite.prepare(runUpsert.sql),
      insertFact: sqlite.prepare(factInsert.sql),
      insertErrorFact: sqlite.prepare(errorFactInsert.sql),
    };
    cache.set(sqlite, statements);
  }
  return statements;
}
