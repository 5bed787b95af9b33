import type Database from "better-sqlite3";

function prepare(sqlite: Database.Database) {
  return {
    getState: sqlite.prepare<[string], { span_watermark: number; error_watermark: number; findings_computed_at: number | null }>(
      "SELECT span_watermark, error_watermark, findings_computed_at FROM drift_state WHERE project_id = ?",
    ),
    // Folding rows marks the findings stale (NULL) until they are recomputed.
    putWatermarks: sqlite.prepare<[string, number, number, number]>(
      `INSERT INTO drift_state (project_id, span_watermark, error_watermark, refreshed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET span_watermark = excluded.span_watermark,
         error_watermark = excluded.error_watermark, refreshed_at = excluded.refreshed_at,
         findings_computed_at = NULL`,
    ),
    putFindingsComputedAt: sqlite.prepare<[string, number]>(
      `INSERT INTO drift_state (project_id, findings_computed_at) VALUES (?, ?)
       ON CONFLICT (project_id) DO UPDATE SET findings_computed_at = excluded.findings_computed_at`,
    ),
    hasSpanAfter: sqlite.prepare<[number, string], { pk: number }>("SELECT pk FROM tool_call_spans WHERE pk > ? AND project_id = ? LIMIT 1"),
    hasErrorAfter: sqlite.prepare<[number, string], { pk: number }>("SELECT pk FROM tool_errors WHERE pk > ? AND project_id = ? LIMIT 1"),
    // Rowid range scans: cheap when nothing is new.
    spansAfter: sqlite.prepare<[number, string, number], SpanScanRow>(
      `SELECT pk, run_id, call_id, tool, tool_version, release, sdk_version, attempt, started_at, outcome, code,
              error_class, retryable, retry_after_ms, decision
       FROM tool_call_spans WHERE pk > ? AND project_id = ? ORDER BY pk LIMIT ?`,
    ),
    errorsAfter: sqlite.prepare<[number, string, number], ErrorScanRow>(
      `SELECT pk, run_id, call_id, tool, tool_version, release, code, error_class, retryable, decision, told, occurred_at
       FROM tool_errors WHERE pk > ? AND project_id = ? ORDER BY pk LIMIT ?`,
    ),
    sdkVersionOfCall: sqlite.prepare<[string, string, string], { sdk_version: string }>(
      `SELECT sdk_version FROM tool_call_spans
       WHERE project_id = ? AND run_id = ? AND call_id = ? AND sdk_version IS NOT NULL AND sdk_version <> '' LIMIT 1`,
    ),
    okAttemptsOfCall: sqlite.prepare<[string, string, string], { attempt: number | null; started_at: number }>(
      "SELECT attempt, started_at FROM tool_call_spans WHERE project_id = ? AND run_id = ? AND call_id = ? AND outcome = 'ok'",
    ),
    getCall: sqlite.prepare<[string, string, string, string], CallRow>(
      "SELECT code, tool, release, attempt, started_at, recovered FROM drift_calls WHERE project_id = ? AND run_id = ? AND call_id = ? AND code = ?",
    ),
    openCallsOf: sqlite.prepare<[string, string, string], CallRow>(
      "SELECT code, tool, release, attempt, started_at, recovered FROM drift_calls WHERE project_id = ? AND run_id = ? AND call_id = ? AND recovered = 0",
    ),
    insertCall: sqlite.prepare<[string, string, string, string, string, string, number | null, number, number]>(
      `INSERT INTO drift_calls (project_id, run_id, call_id, code, tool, release, attempt, started_at, recovered)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateCall: sqlite.prepare<[number | null, number, number, string, string, string, string]>(
      "UPDATE drift_calls SET attempt = ?, started_at = ?, recovered = ? WHERE project_id = ? AND run_id = ? AND call_id = ? AND code = ?",
    ),
    getSignature: sqlite.prepare<[string, string, string, string], { release_kind: string; spans: number; errors: number; calls: number; recovered: number; first_seen: number; last_seen: number; example_run_ids: string }>(
      "SELECT release_kind, spans, errors, calls, recovered, first_seen, last_seen, example_run_ids FROM drift_signatures WHERE project_id = ? AND code = ? AND tool = ? AND release = ?",
    ),
    putSignature: sqlite.prepare<[string, string, string, string, string, number, number, number, number, number, number, string]>(
      `INSERT OR REPLACE INTO drift_signatures (project_id, code, tool, release, release_kind, spans, errors, calls, recovered, first_seen, last_seen, example_run_ids)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addCount: sqlite.prepare<[string, string, string, string, string, string, string, number]>(
      `INSERT INTO drift_counts (project_id, code, tool, release, basis, dim, value, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET count = count + excluded.count`,
    ),
    getToolRelease: sqlite.prepare<[string, string, string], { first_attempts: number; spans: number; errors: number; first_seen: number; last_seen: number; example_run_ids: string }>(
      "SELECT first_attempts, spans, errors, first_seen, last_seen, example_run_ids FROM drift_tool_releases WHERE project_id = ? AND tool = ? AND release = ?",
    ),
    putToolRelease: sqlite.prepare<[string, string, string, string, number, number, number, number, number, string]>(
      `INSERT OR REPLACE INTO drift_tool_releases (project_id, tool, release, release_kind, first_attempts, spans, errors, first_seen, last_seen, example_run_ids)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteFindings: sqlite.prepare<[string]>("DELETE FROM drift_findings WHERE project_id = ?"),
    insertFinding: sqlite.prepare<[string, string, number, string, string, string, string, string | null, string, string, string, string, number]>(
      `INSERT INTO drift_findings (project_id, finding_id, rank, kind, severity, verdict, code, renamed_to, tool, from_release, to_release, body, computed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
}

export type DriftStatements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database.Database, DriftStatements>();

/** Prepared statements of the drift refresh, prepared once per connection. */
export function driftStatements(sqlite: Database.Database): DriftStatements {
  let st = cache.get(sqlite);
  if (!st) {
    st = prepare(sqlite);
    cache.set(sqlite, st);
  }
  return st;
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
}

export interface CallRow {
  code: string;
  tool: string;
  release: string;
  attempt: number | null;
  started_at: number;
  recovered: number;
}
