import type { Dialect } from "../store/types";
import { jsonRows } from "../store/dialect-sql";

// The drift fold's SQL, one text per engine where a chunk travels as a JSON parameter (see
// store/dialect-sql.ts), else one text for both. Built once per dialect so the statement caches see a fixed set.
// The chunk's keys (k) join as `k CROSS JOIN table`: SQLite then keeps k as the outer loop and probes
// the table's index once per key (without statistics it may otherwise scan the table once per key);
// PostgreSQL plans it as any inner join.

function build(dialect: Dialect) {
  // The fold reads each raw table in `pk` order from its watermark. SQLite has no statistics, so it
  // would pick an index on project_id instead, read every row of the project and sort them — per
  // chunk, and per freshness probe on every drift read. The unary plus (SQLite only) rules that
  // index out and leaves the `pk` (rowid) range: work in proportion to the backlog. PostgreSQL
  // plans from its statistics.
  const projectOf = (table: string) => (dialect === "sqlite" ? `+${table}.project_id` : `${table}.project_id`);
  const rows = jsonRows(dialect, "@rows");
  const keys = `WITH k AS (SELECT value ->> 0 AS run_id, value ->> 1 AS call_id FROM ${jsonRows(dialect, "@keys")})`;
  return {
    /**
     * Reads a project's watermarks and, on PostgreSQL, locks its state row until the transaction
     * ends: two folds (or a fold and a recompute) of one project take turns instead of reading the
     * same watermark. The no-op update is what takes the lock; the row is created on first use.
     */
    lockState: `INSERT INTO drift_state (project_id) VALUES (@project)
       ON CONFLICT (project_id) DO UPDATE SET refreshed_at = drift_state.refreshed_at
       RETURNING span_watermark, error_watermark, findings_computed_at`,
    // Folding rows marks the findings stale (NULL) until they are recomputed.
    putWatermarks: `UPDATE drift_state SET span_watermark = @span, error_watermark = @error, refreshed_at = @now, findings_computed_at = NULL
       WHERE project_id = @project`,
    putFindingsComputedAt: "UPDATE drift_state SET findings_computed_at = @now WHERE project_id = @project",
    // The classification changed under the findings (their rule notes, what counts as a rule's doing).
    markFindingsStale: "UPDATE drift_state SET findings_computed_at = NULL WHERE project_id = @project",
    getState: "SELECT span_watermark, error_watermark, refreshed_at, findings_computed_at FROM drift_state WHERE project_id = @project",
    /** The told counts changed since the findings were computed (db/schema/told-stale.ts). */
    hasToldStale: "SELECT project_id FROM told_stale WHERE project_id = @project",
    clearToldStale: "DELETE FROM told_stale WHERE project_id = @project",
    markToldStale: "INSERT INTO told_stale (project_id, since) VALUES (@project, @now) ON CONFLICT (project_id) DO NOTHING",
    // `pk` range probes: cheap when nothing is new.
    hasSpanAfter: `SELECT pk FROM tool_call_spans WHERE ${projectOf("tool_call_spans")} = @project AND pk > @after LIMIT 1`,
    hasErrorAfter: `SELECT pk FROM tool_errors WHERE ${projectOf("tool_errors")} = @project AND pk > @after LIMIT 1`,
    // With each row, the rule that coded it and the emitter's own fields (db/classify): drift counts what the emitter said.
    spansAfter: `SELECT s.pk, s.run_id, s.call_id, s.tool, em.tool_version, em.release, em.sdk_version, s.attempt, s.started_at, s.outcome, s.code,
              s.error_class, s.retryable, s.retry_after_ms, s.decision, f.rule_id, f.prior
       FROM tool_call_spans s CROSS JOIN span_emitters em LEFT JOIN failure_facts f ON f.project_id = s.project_id AND f.span_id = s.span_id
       WHERE ${projectOf("s")} = @project AND em.id = s.emitter_id AND s.pk > @after AND s.pk <= @horizon ORDER BY s.pk LIMIT @limit`,
    errorsAfter: `SELECT e.pk, e.run_id, e.call_id, e.tool, e.tool_version, e.release, e.code, e.error_class, e.retryable, e.decision, e.told, e.occurred_at,
              f.rule_id, f.prior
       FROM tool_errors e LEFT JOIN error_facts f ON f.project_id = e.project_id AND f.event_id = e.event_id
       WHERE ${projectOf("e")} = @project AND e.pk > @after AND e.pk <= @horizon ORDER BY e.pk LIMIT @limit`,
    /** The stored calls of a chunk's (run, call) keys, every code. */
    callsOf: `${keys}
       SELECT c.run_id, c.call_id, c.code, c.tool, c.release, c.attempt, c.started_at, c.recovered
       FROM k CROSS JOIN drift_calls c WHERE c.project_id = @project AND c.run_id = k.run_id AND c.call_id = k.call_id`,
    /**
     * The spans of a chunk's calls that matter to it: ok attempts (recovery), and tool versions,
     * releases and SDK versions (the release of final errors that do not name their tool version).
     */
    spansOfCalls: `${keys}
       SELECT s.pk, s.run_id, s.call_id, s.attempt, s.started_at, s.outcome, em.tool_version, em.release, em.sdk_version
       FROM k CROSS JOIN tool_call_spans s CROSS JOIN span_emitters em
       WHERE s.project_id = @project AND s.run_id = k.run_id AND s.call_id = k.call_id AND em.id = s.emitter_id
         AND (s.outcome = 'ok' OR (em.sdk_version IS NOT NULL AND em.sdk_version <> '') OR (em.tool_version IS NOT NULL AND em.tool_version <> ''))`,
    /**
     * Final errors already folded under their own release, without a tool version, of calls whose
     * first versioned span is in this chunk: they move to that tool version (chunk-folder.ts).
     */
    foldedErrorsOf: `${keys}
       SELECT e.pk, e.run_id, e.call_id, e.tool, e.tool_version, e.release, e.code, e.error_class, e.retryable, e.decision, e.told, e.occurred_at,
         f.rule_id, f.prior
       FROM k CROSS JOIN tool_errors e LEFT JOIN error_facts f ON f.project_id = e.project_id AND f.event_id = e.event_id
       WHERE e.project_id = @project AND e.run_id = k.run_id AND e.call_id = k.call_id AND e.pk <= @folded
         AND (e.tool_version IS NULL OR e.tool_version = '') AND e.release IS NOT NULL AND e.release <> ''`,
    putCalls: `INSERT INTO drift_calls (project_id, run_id, call_id, code, tool, release, attempt, started_at, recovered)
       SELECT @project, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
              CAST(value ->> 5 AS bigint), CAST(value ->> 6 AS bigint), CAST(value ->> 7 AS bigint)
       FROM ${rows} WHERE true
       ON CONFLICT (project_id, run_id, call_id, code) DO UPDATE SET
         attempt = excluded.attempt, started_at = excluded.started_at, recovered = excluded.recovered`,
    signaturesOf: `WITH k AS (SELECT value ->> 0 AS code, value ->> 1 AS tool, value ->> 2 AS release FROM ${jsonRows(dialect, "@keys")})
       SELECT s.code, s.tool, s.release, s.release_kind, s.spans, s.errors, s.calls, s.recovered, s.ruled, s.first_seen, s.last_seen, s.example_run_ids
       FROM k CROSS JOIN drift_signatures s WHERE s.project_id = @project AND s.code = k.code AND s.tool = k.tool AND s.release = k.release`,
    putSignatures: `INSERT INTO drift_signatures (project_id, code, tool, release, release_kind, spans, errors, calls, recovered, first_seen, last_seen, example_run_ids, ruled)
       SELECT @project, value ->> 0, value ->> 1, value ->> 2, value ->> 3,
              CAST(value ->> 4 AS bigint), CAST(value ->> 5 AS bigint), CAST(value ->> 6 AS bigint), CAST(value ->> 7 AS bigint),
              CAST(value ->> 8 AS bigint), CAST(value ->> 9 AS bigint), value ->> 10, CAST(value ->> 11 AS bigint)
       FROM ${rows} WHERE true
       ON CONFLICT (project_id, code, tool, release) DO UPDATE SET
         release_kind = excluded.release_kind, spans = excluded.spans, errors = excluded.errors, calls = excluded.calls, ruled = excluded.ruled,
         recovered = excluded.recovered, first_seen = excluded.first_seen, last_seen = excluded.last_seen, example_run_ids = excluded.example_run_ids`,
    toolReleasesOf: `WITH k AS (SELECT value ->> 0 AS tool, value ->> 1 AS release FROM ${jsonRows(dialect, "@keys")})
       SELECT r.tool, r.release, r.first_attempts, r.spans, r.errors, r.first_seen, r.last_seen, r.example_run_ids
       FROM k CROSS JOIN drift_tool_releases r WHERE r.project_id = @project AND r.tool = k.tool AND r.release = k.release`,
    putToolReleases: `INSERT INTO drift_tool_releases (project_id, tool, release, release_kind, first_attempts, spans, errors, first_seen, last_seen, example_run_ids)
       SELECT @project, value ->> 0, value ->> 1, value ->> 2,
              CAST(value ->> 3 AS bigint), CAST(value ->> 4 AS bigint), CAST(value ->> 5 AS bigint),
              CAST(value ->> 6 AS bigint), CAST(value ->> 7 AS bigint), value ->> 8
       FROM ${rows} WHERE true
       ON CONFLICT (project_id, tool, release) DO UPDATE SET
         first_attempts = excluded.first_attempts, spans = excluded.spans, errors = excluded.errors,
         first_seen = excluded.first_seen, last_seen = excluded.last_seen, example_run_ids = excluded.example_run_ids`,
    addCounts: `INSERT INTO drift_counts (project_id, code, tool, release, basis, dim, value, count)
       SELECT @project, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, CAST(value ->> 6 AS bigint)
       FROM ${rows} WHERE true
       ON CONFLICT (project_id, code, tool, release, basis, dim, value) DO UPDATE SET count = drift_counts.count + excluded.count`,
    deleteFindings: "DELETE FROM drift_findings WHERE project_id = @project",
    insertFindings: `INSERT INTO drift_findings (project_id, finding_id, rank, kind, severity, verdict, code, renamed_to, tool, from_release, to_release, body, computed_at)
       SELECT @project, value ->> 0, CAST(value ->> 1 AS bigint), value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6,
              value ->> 7, value ->> 8, value ->> 9, value ->> 10, CAST(@now AS bigint)
       FROM ${rows} WHERE true`,
  };
}

export type DriftSql = ReturnType<typeof build>;
const built: Partial<Record<Dialect, DriftSql>> = {};

/** The drift fold's statements for one engine. */
export function driftSql(dialect: Dialect): DriftSql {
  return (built[dialect] ??= build(dialect));
}

export interface StateRow {
  span_watermark: number;
  error_watermark: number;
  findings_computed_at: number | null;
}

export interface SpanScanRow {
  pk: number;
  run_id: string;
  call_id: string;
  tool: string;
  tool_version: string | null;
  release: string | null;
  sdk_version: string | null;
  attempt: number | null;
  started_at: number;
  outcome: string | null;
  code: string | null;
  error_class: string | null;
  retryable: number | null;
  retry_after_ms: number | null;
  decision: string | null;
  /** The rule that set the code (failure_facts), null when none did; and the emitter's own fields as JSON when one did. */
  rule_id: string | null;
  prior: string | null;
}

export interface ErrorScanRow {
  pk: number;
  run_id: string;
  call_id: string;
  tool: string;
  tool_version: string | null;
  release: string | null;
  code: string | null;
  error_class: string | null;
  retryable: number | null;
  decision: string | null;
  told: string | null;
  occurred_at: number;
  /** The rule that set the code (error_facts), null when none did; and the emitter's own fields as JSON when one did. */
  rule_id: string | null;
  prior: string | null;
}

export interface CallRow {
  code: string;
  tool: string;
  release: string;
  attempt: number | null;
  started_at: number;
  recovered: number;
}

export interface CallSpanRow {
  pk: number;
  run_id: string;
  call_id: string;
  attempt: number | null;
  started_at: number;
  outcome: string | null;
  tool_version: string | null;
  release: string | null;
  sdk_version: string | null;
}

export interface SignatureRow {
  code: string;
  tool: string;
  release: string;
  release_kind: string;
  spans: number;
  errors: number;
  calls: number;
  recovered: number;
  /** Spans and final errors whose code a project's rule set. */
  ruled: number;
  first_seen: number;
  last_seen: number;
  example_run_ids: string;
}

export interface ToolReleaseRow {
  tool: string;
  release: string;
  first_attempts: number;
  spans: number;
  errors: number;
  first_seen: number;
  last_seen: number;
  example_run_ids: string;
}
