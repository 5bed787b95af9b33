import type { RowBatch, SpanRow } from "@/lib/ingest/rows";
import { issueBatches, type IssueBatch, type IssueCodeOf } from "@/lib/triage/issue-batch";
import { applyFailures, type Triage } from "@/lib/triage/issue-state";
import type { WrittenFlags } from "../ingest/tally";
import { prepared } from "../store/sqlite-prepared";
import { jsonRows } from "../store/dialect-sql";
import type { SqliteStore } from "../store/types";

// Issues are kept at ingest, in the batch's transaction (docs/issues.md): each failing (tool, code)
// of the batch's new spans is created once, its totals and per-release, per-hour and per-run facts
// move, and its triage is re-judged (a resolution the failures break becomes `regressed`).
//
// SQLite runs the steps below, a generator of statements, synchronously with prepared statements
// inside its immediate transaction; PostgreSQL runs the same steps set-based (ingest-issues-pg.ts).
// On PostgreSQL the unique (project, tool, code) key makes a concurrent node's insert wait and then
// do nothing, and the counter UPDATE holds the issue's row lock to the end of the transaction, so
// creation happens once and two nodes judge the triage one after the other. Issues are visited in
// (tool, code) order, so two batches never wait on each other's locks in a cycle.

type Statement = { sql: string; params: Record<string, unknown> };

// All of an issue's runs in one statement (a batch may carry hundreds); `WHERE true` keeps SQLite
// from reading ON CONFLICT as a join's constraint. The new rows are what `issues.runs` adds.
const RUNS = `INSERT INTO issue_runs (project_id, issue_id, run_id)
    SELECT @project, @id, value ->> 0 FROM ${jsonRows("sqlite", "@runs")} WHERE true ORDER BY 3
    ON CONFLICT (project_id, issue_id, run_id) DO NOTHING RETURNING run_id`;

const LATER = (column: string, table: string) => `CASE WHEN excluded.${column} > ${table}.${column} THEN excluded.${column} ELSE ${table}.${column} END`;
const EARLIER = (column: string, table: string) => `CASE WHEN excluded.${column} < ${table}.${column} THEN excluded.${column} ELSE ${table}.${column} END`;

/** The issue statements the two engines share. */
export const ISSUE_SQL = {
  /** The triage a failure changed, positional ($1 project, $2 id, then the Triage fields), for PostgreSQL's named statements. */
  triagePositional: `UPDATE issues SET state = $3, resolve_mode = $4, resolve_release = $5, resolved_at = $6, ignore_mode = $7, ignore_limit = $8
    WHERE project_id = $1 AND id = $2`,
  create: `INSERT INTO issues (project_id, id, tool, code, state, failures, unrecovered, retries, wait_ms, runs, worst_hour, first_seen, last_seen, updated_at)
    VALUES (@project, @id, @tool, @code, 'open', 0, 0, 0, 0, 0, 0, @first, @last, @now)
    ON CONFLICT (project_id, tool, code) DO NOTHING RETURNING id`,
  event: `INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail)
    VALUES (@project, @id, @now, NULL, 'ingest', @kind, @detail)`,
  release: `INSERT INTO issue_releases (project_id, issue_id, release, first_seen, last_seen, failures)
    VALUES (@project, @id, @release, @first, @last, @failures)
    ON CONFLICT (project_id, issue_id, release) DO UPDATE SET failures = issue_releases.failures + excluded.failures,
      first_seen = ${EARLIER("first_seen", "issue_releases")}, last_seen = ${LATER("last_seen", "issue_releases")}`,
  hour: `INSERT INTO issue_hours (project_id, issue_id, hour, failures) VALUES (@project, @id, @hour, @failures)
    ON CONFLICT (project_id, issue_id, hour) DO UPDATE SET failures = issue_hours.failures + excluded.failures RETURNING failures`,
  totals: `UPDATE issues SET failures = failures + @failures, unrecovered = unrecovered + @unrecovered, retries = retries + @retries,
      wait_ms = wait_ms + @wait, runs = runs + @runs, worst_hour = CASE WHEN @worst > worst_hour THEN @worst ELSE worst_hour END,
      first_seen = CASE WHEN @first < first_seen THEN @first ELSE first_seen END,
      last_seen = CASE WHEN @last > last_seen THEN @last ELSE last_seen END, updated_at = @now
    WHERE project_id = @project AND id = @id
    RETURNING state, resolve_mode, resolve_release, resolved_at, ignore_mode, ignore_limit, failures, worst_hour`,
  releases: "SELECT release, first_seen FROM issue_releases WHERE project_id = @project AND issue_id = @id ORDER BY release",
  triage: `UPDATE issues SET state = @state, resolve_mode = @resolveMode, resolve_release = @resolveRelease, resolved_at = @resolvedAt,
      ignore_mode = @ignoreMode, ignore_limit = @ignoreLimit WHERE project_id = @project AND id = @id`,
};

/** An issue's counters and triage as the counter update returns them. */
export interface TotalsRow {
  state: Triage["state"];
  resolve_mode: Triage["resolveMode"];
  resolve_release: string | null;
  resolved_at: number | null;
  ignore_mode: Triage["ignoreMode"];
  ignore_limit: number | null;
  failures: number;
  worst_hour: number;
}

/** The statements of one issue's batch; each `yield` answers the statement's returned rows. */
function* issueSteps(project: string, b: IssueBatch, now: number): Generator<Statement, void, unknown[]> {
  const id = b.id;
  const created = yield { sql: ISSUE_SQL.create, params: { project, id, tool: b.tool, code: b.code, first: b.firstSeen, last: b.lastSeen, now } };
  if (created.length > 0) yield { sql: ISSUE_SQL.event, params: { project, id, now, kind: "created", detail: `first failed in ${b.failures[0]!.release}` } };
  for (const [release, r] of b.releases) yield { sql: ISSUE_SQL.release, params: { project, id, release, first: r.firstSeen, last: r.lastSeen, failures: r.failures } };
  let worst = 0;
  for (const [hour, failures] of b.hours) {
    const [row] = (yield { sql: ISSUE_SQL.hour, params: { project, id, hour, failures } }) as { failures: number }[];
    worst = Math.max(worst, row!.failures);
  }
  const runs = (yield { sql: RUNS, params: { project, id, runs: JSON.stringify([...b.runIds].map((r) => [r])) } }).length;
  const totals = { failures: b.failures.length, unrecovered: b.unrecovered, retries: b.retries, wait: b.waitMs, runs, worst, first: b.firstSeen, last: b.lastSeen };
  const [row] = (yield { sql: ISSUE_SQL.totals, params: { project, id, now, ...totals } }) as TotalsRow[];
  const releases = (yield { sql: ISSUE_SQL.releases, params: { project, id } }) as { release: string; first_seen: number }[];
  const before: Triage = { state: row!.state, resolveMode: row!.resolve_mode, resolveRelease: row!.resolve_release, resolvedAt: row!.resolved_at, ignoreMode: row!.ignore_mode, ignoreLimit: row!.ignore_limit };
  const { triage, event } = applyFailures(before, {
    failures: b.failures,
    totalFailures: row!.failures,
    worstHour: worst,
    releases: releases.map((r) => ({ release: r.release, firstSeen: r.first_seen })),
  });
  if (event === null) return;
  yield { sql: ISSUE_SQL.triage, params: { project, id, ...triage } };
  yield { sql: ISSUE_SQL.event, params: { project, id, now, kind: event.kind, detail: event.detail } };
}

/** The batch's spans that were new (written), the only ones that count towards issues. */
export const newSpans = (batch: RowBatch, written: WrittenFlags): SpanRow[] => batch.spans.filter((_, i) => written.spans[i] === 1).map((s) => s.row);

/** SQLite: the batch's issues, inside the ingest's synchronous transaction. */
export function applyIssuesSqlite(store: SqliteStore, projectId: string, batch: RowBatch, written: WrittenFlags, now: number, codeOf?: IssueCodeOf): void {
  for (const b of issueBatches(projectId, newSpans(batch, written), codeOf)) {
    const steps = issueSteps(projectId, b, now);
    let next = steps.next([]);
    while (!next.done) {
      const statement = prepared(store.sqlite, next.value.sql);
      const params = next.value.params;
      next = steps.next(statement.reader ? statement.all(params) : (statement.run(params), []));
    }
  }
}
