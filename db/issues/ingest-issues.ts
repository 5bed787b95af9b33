import type { RowBatch, SpanRow } from "@/lib/ingest/rows";
import type Database from "better-sqlite3";
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
// Both engines run the same steps set-based, one statement per step for all of the batch's issues
// whatever their number: SQLite with JSON rows (json_each) inside its immediate transaction, here;
// PostgreSQL with arrays (ingest-issues-pg.ts). One issue at a time, a 100-span batch touching ~37
// issues ran ~220 statements on SQLite, the issue hook's 17 % of in-process ingest CPU
// (docs/ingest-performance.md). On PostgreSQL the unique (project, tool, code) key makes a concurrent
// node's insert wait and then do nothing, and the counter UPDATE holds the issue's row lock to the end
// of the transaction, so creation happens once and two nodes judge the triage one after the other.
// Issues are visited in (tool, code) order, so two batches never wait on each other's locks in a cycle.

/** JSON rows of a step, `value ->> n` a row's n-th field; json_each yields them in the array's order, the batch's. */
const ROWS = jsonRows("sqlite", "@rows");
const field = (n: number) => `value ->> ${n}`;
// `WHERE true` keeps SQLite from reading ON CONFLICT as a join's constraint.
const ORDERED = `FROM ${ROWS} WHERE true`;

const LATER = (column: string, table: string) => `CASE WHEN excluded.${column} > ${table}.${column} THEN excluded.${column} ELSE ${table}.${column} END`;
const EARLIER = (column: string, table: string) => `CASE WHEN excluded.${column} < ${table}.${column} THEN excluded.${column} ELSE ${table}.${column} END`;

/** The issue statements the two engines share. */
export const ISSUE_SQL = {
  /** The triage a failure changed, positional ($1 project, $2 id, then the Triage fields), for PostgreSQL's named statements. */
  triagePositional: `UPDATE issues SET state = $3, resolve_mode = $4, resolve_release = $5, resolved_at = $6, ignore_mode = $7, ignore_limit = $8
    WHERE project_id = $1 AND id = $2`,
};

/** SQLite's set-based steps; `@rows` is a JSON array of row arrays, fields as each statement reads them. */
const SQL = {
  create: `INSERT INTO issues (project_id, id, tool, code, state, failures, unrecovered, retries, wait_ms, runs, worst_hour, first_seen, last_seen, updated_at)
    SELECT @project, ${field(0)}, ${field(1)}, ${field(2)}, 'open', 0, 0, 0, 0, 0, 0, ${field(3)}, ${field(4)}, @now ${ORDERED}
    ON CONFLICT (project_id, tool, code) DO NOTHING RETURNING id`,
  events: `INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail)
    SELECT @project, ${field(0)}, @now, NULL, 'ingest', ${field(1)}, ${field(2)} ${ORDERED}`,
  releases: `INSERT INTO issue_releases (project_id, issue_id, release, first_seen, last_seen, failures)
    SELECT @project, ${field(0)}, ${field(1)}, ${field(2)}, ${field(3)}, ${field(4)} ${ORDERED}
    ON CONFLICT (project_id, issue_id, release) DO UPDATE SET failures = issue_releases.failures + excluded.failures,
      first_seen = ${EARLIER("first_seen", "issue_releases")}, last_seen = ${LATER("last_seen", "issue_releases")}`,
  hours: `INSERT INTO issue_hours (project_id, issue_id, hour, failures) SELECT @project, ${field(0)}, ${field(1)}, ${field(2)} ${ORDERED}
    ON CONFLICT (project_id, issue_id, hour) DO UPDATE SET failures = issue_hours.failures + excluded.failures RETURNING issue_id, failures`,
  // The new rows are what `issues.runs` adds.
  runs: `INSERT INTO issue_runs (project_id, issue_id, run_id) SELECT @project, ${field(0)}, ${field(1)} ${ORDERED}
    ON CONFLICT (project_id, issue_id, run_id) DO NOTHING RETURNING issue_id`,
  // A materialized u is the outer loop: one key probe per issue (as a plain subquery the planner
  // scanned the project's issues through another index and u for each).
  totals: `WITH u AS MATERIALIZED (SELECT ${field(0)} AS id, ${field(1)} AS failures, ${field(2)} AS unrecovered, ${field(3)} AS retries, ${field(4)} AS wait,
        ${field(5)} AS runs, ${field(6)} AS worst, ${field(7)} AS first, ${field(8)} AS last FROM ${ROWS})
    UPDATE issues SET failures = issues.failures + u.failures, unrecovered = issues.unrecovered + u.unrecovered, retries = issues.retries + u.retries,
      wait_ms = issues.wait_ms + u.wait, runs = issues.runs + u.runs, worst_hour = CASE WHEN u.worst > issues.worst_hour THEN u.worst ELSE issues.worst_hour END,
      first_seen = CASE WHEN u.first < issues.first_seen THEN u.first ELSE issues.first_seen END,
      last_seen = CASE WHEN u.last > issues.last_seen THEN u.last ELSE issues.last_seen END, updated_at = @now
    FROM u WHERE issues.project_id = @project AND issues.id = u.id
    RETURNING id, state, resolve_mode, resolve_release, resolved_at, ignore_mode, ignore_limit, failures, worst_hour`,
  releaseList: `SELECT issue_id, release, first_seen FROM issue_releases
    WHERE project_id = @project AND issue_id IN (SELECT ${field(0)} FROM ${ROWS}) ORDER BY issue_id, release`,
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

/** The batch's spans that were new (written), the only ones that count towards issues. */
export const newSpans = (batch: RowBatch, written: WrittenFlags): SpanRow[] => batch.spans.filter((_, i) => written.spans[i] === 1).map((s) => s.row);

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Judges the triage of the issues whose state a failure can change (resolved, ignored), with their releases. */
function judge(sqlite: Database.Database, project: string, issues: readonly IssueBatch[], totals: readonly (TotalsRow & { id: string })[], worst: Map<string, number>, now: number): void {
  const judged = new Map(totals.filter((t) => t.state === "resolved" || t.state === "ignored").map((t) => [t.id, t]));
  if (judged.size === 0) return;
  const releaseRows = prepared<{ issue_id: string; release: string; first_seen: number }>(sqlite, SQL.releaseList).all({ project, rows: JSON.stringify([...judged.keys()].map((id) => [id])) });
  const events: [string, string, string][] = [];
  // In (tool, code) order, as the issues were visited.
  for (const b of issues) {
    const row = judged.get(b.id);
    if (!row) continue;
    const before: Triage = { state: row.state, resolveMode: row.resolve_mode, resolveRelease: row.resolve_release, resolvedAt: row.resolved_at, ignoreMode: row.ignore_mode, ignoreLimit: row.ignore_limit };
    const { triage, event } = applyFailures(before, {
      failures: b.failures,
      totalFailures: row.failures,
      worstHour: worst.get(b.id) ?? 0,
      releases: releaseRows.filter((r) => r.issue_id === b.id).map((r) => ({ release: r.release, firstSeen: r.first_seen })),
    });
    if (event === null) continue;
    prepared(sqlite, SQL.triage).run({ project, id: b.id, ...triage });
    events.push([b.id, event.kind, event.detail]);
  }
  if (events.length > 0) prepared(sqlite, SQL.events).run({ project, now, rows: JSON.stringify(events) });
}

/** SQLite: the batch's issues, inside the ingest's synchronous transaction, in a fixed number of statements. */
export function applyIssuesSqlite(store: SqliteStore, projectId: string, batch: RowBatch, written: WrittenFlags, now: number, codeOf?: IssueCodeOf): void {
  const issues = issueBatches(projectId, newSpans(batch, written), codeOf);
  if (issues.length === 0) return;
  const { sqlite } = store;
  const project = projectId;
  const step = <Row>(sql: string, rows: readonly (readonly unknown[])[]): Row[] => {
    const statement = prepared<Row>(sqlite, sql);
    const params = { project, now, rows: JSON.stringify(rows) };
    return statement.reader ? statement.all(params) : (statement.run(params), []);
  };
  const created = new Set(step<{ id: string }>(SQL.create, issues.map((b) => [b.id, b.tool, b.code, b.firstSeen, b.lastSeen])).map((r) => r.id));
  if (created.size > 0) step(SQL.events, issues.filter((b) => created.has(b.id)).map((b) => [b.id, "created", `first failed in ${b.failures[0]!.release}`]));
  step(SQL.releases, issues.flatMap((b) => [...b.releases].sort(([x], [y]) => byText(x, y)).map(([release, r]) => [b.id, release, r.firstSeen, r.lastSeen, r.failures])));
  const worst = new Map<string, number>();
  for (const r of step<{ issue_id: string; failures: number }>(SQL.hours, issues.flatMap((b) => [...b.hours].sort(([x], [y]) => x - y).map(([hour, failures]) => [b.id, hour, failures])))) {
    worst.set(r.issue_id, Math.max(worst.get(r.issue_id) ?? 0, r.failures));
  }
  const newRuns = new Map<string, number>();
  for (const r of step<{ issue_id: string }>(SQL.runs, issues.flatMap((b) => [...b.runIds].sort(byText).map((run) => [b.id, run])))) newRuns.set(r.issue_id, (newRuns.get(r.issue_id) ?? 0) + 1);
  const totals = step<TotalsRow & { id: string }>(SQL.totals, issues.map((b) => [
    b.id, b.failures.length, b.unrecovered, b.retries, b.waitMs, newRuns.get(b.id) ?? 0, worst.get(b.id) ?? 0, b.firstSeen, b.lastSeen,
  ]));
  judge(sqlite, project, issues, totals, worst, now);
}
