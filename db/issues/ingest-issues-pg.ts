import type { RowBatch } from "@/lib/ingest/rows";
import { issueBatches, type IssueBatch, type IssueCodeOf } from "@/lib/triage/issue-batch";
import { applyFailures, type Triage } from "@/lib/triage/issue-state";
import { queryNamed } from "../ingest/pg-named";
import type { WrittenFlags } from "../ingest/tally";
import type { PgTx } from "../store/types";
import { ISSUE_SQL, newSpans, type TotalsRow } from "./ingest-issues";

// PostgreSQL keeps the issues of a batch (docs/issues.md) with a fixed handful of set-based statements,
// whatever the number of issues: one statement per step for all of the batch's issues (a 100-span
// batch touching 40 issues took ~250 round trips one issue at a time, held its rollup row locks
// through all of them, and so made every concurrent batch wait). Each step takes its row locks in
// one order, (tool, code) and then the row's own key, and the steps run in one order, so concurrent
// batches on any node never wait on each other in a cycle. The outcome is the SQLite path's, row for row.

const SQL = {
  create: `INSERT INTO issues (project_id, id, tool, code, state, failures, unrecovered, retries, wait_ms, runs, worst_hour, first_seen, last_seen, updated_at)
    SELECT $1, id, tool, code, 'open', 0, 0, 0, 0, 0, 0, first_seen, last_seen, $2
    FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[]) WITH ORDINALITY AS u(id, tool, code, first_seen, last_seen, ord) ORDER BY ord
    ON CONFLICT (project_id, tool, code) DO NOTHING RETURNING id`,
  events: `INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail)
    SELECT $1, issue_id, $2, NULL, 'ingest', kind, detail FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(issue_id, kind, detail, ord) ORDER BY ord`,
  // A batch's releases, hours and runs of its issues, in one round trip: three independent upserts
  // (data-modifying CTEs), the same plan in every transaction, so each takes its rows in one order.
  // Rows are 0 (an hour's counter as it now stands) and 1 (a run new to its issue).
  counters: `WITH releases AS (INSERT INTO issue_releases (project_id, issue_id, release, first_seen, last_seen, failures)
      SELECT $1, issue_id, release, first_seen, last_seen, failures
      FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) WITH ORDINALITY AS u(issue_id, release, first_seen, last_seen, failures, ord) ORDER BY ord
      ON CONFLICT (project_id, issue_id, release) DO UPDATE SET failures = issue_releases.failures + excluded.failures,
        first_seen = LEAST(issue_releases.first_seen, excluded.first_seen), last_seen = GREATEST(issue_releases.last_seen, excluded.last_seen)),
    hours AS (INSERT INTO issue_hours (project_id, issue_id, hour, failures)
      SELECT $1, issue_id, hour, failures FROM unnest($7::text[], $8::bigint[], $9::bigint[]) WITH ORDINALITY AS u(issue_id, hour, failures, ord) ORDER BY ord
      ON CONFLICT (project_id, issue_id, hour) DO UPDATE SET failures = issue_hours.failures + excluded.failures RETURNING issue_id, failures),
    runs AS (INSERT INTO issue_runs (project_id, issue_id, run_id)
      SELECT $1, issue_id, run_id FROM unnest($10::text[], $11::text[]) WITH ORDINALITY AS u(issue_id, run_id, ord) ORDER BY ord
      ON CONFLICT (project_id, issue_id, run_id) DO NOTHING RETURNING issue_id)
    SELECT 0 AS kind, issue_id, failures FROM hours UNION ALL SELECT 1 AS kind, issue_id, NULL FROM runs`,
  // The UPDATE joins an array, whose plan does not promise an order, so the rows are locked first, in
  // key order, by the `locked` CTE: the scalar subquery over it does not depend on any row, so it is a
  // one-time filter, evaluated before the UPDATE reads a row (a statement of its own before, one round
  // trip more). A row another transaction changed meanwhile is updated as it now stands (READ COMMITTED
  // re-reads it), as the separate statement's later snapshot saw it.
  totals: `WITH locked AS MATERIALIZED (SELECT id FROM issues WHERE project_id = $1 AND id = ANY($3::text[]) ORDER BY tool, code FOR UPDATE)
    UPDATE issues SET failures = issues.failures + u.failures, unrecovered = issues.unrecovered + u.unrecovered, retries = issues.retries + u.retries,
      wait_ms = issues.wait_ms + u.wait_ms, runs = issues.runs + u.runs, worst_hour = GREATEST(issues.worst_hour, u.worst),
      first_seen = LEAST(issues.first_seen, u.first_seen), last_seen = GREATEST(issues.last_seen, u.last_seen), updated_at = $2
    FROM unnest($3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])
      AS u(id, failures, unrecovered, retries, wait_ms, runs, worst, first_seen, last_seen)
    WHERE issues.project_id = $1 AND issues.id = u.id AND (SELECT count(*) FROM locked) >= 0
    RETURNING issues.id, issues.state, issues.resolve_mode, issues.resolve_release, issues.resolved_at, issues.ignore_mode, issues.ignore_limit, issues.failures, issues.worst_hour`,
  releaseList: "SELECT issue_id, release, first_seen FROM issue_releases WHERE project_id = $1 AND issue_id = ANY($2::text[]) ORDER BY issue_id, release",
};

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Column arrays of rows: one array per field. */
function columns<T extends readonly unknown[]>(rows: readonly T[], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => new Array(rows.length));
  for (let r = 0; r < rows.length; r++) for (let c = 0; c < width; c++) out[c]![r] = rows[r]![c];
  return out;
}

/**
 * Upserts the issues' releases, hours and runs; per issue, the largest hour counter this batch's
 * hours now hold (`worst`) and the number of runs new to it (`newRuns`).
 */
async function upsertCounters(tx: PgTx, project: string, issues: readonly IssueBatch[]): Promise<{ worst: Map<string, number>; newRuns: Map<string, number> }> {
  const releases = issues.flatMap((b) => [...b.releases].sort(([x], [y]) => byText(x, y)).map(([release, r]) => [b.id, release, r.firstSeen, r.lastSeen, r.failures] as const));
  const hours = issues.flatMap((b) => [...b.hours].sort(([x], [y]) => x - y).map(([hour, failures]) => [b.id, hour, failures] as const));
  const runs = issues.flatMap((b) => [...b.runIds].sort(byText).map((run) => [b.id, run] as const));
  const returned = await queryNamed<{ kind: number; issue_id: string; failures: string | number | null }>(tx, SQL.counters, [
    project, ...columns(releases, 5), ...columns(hours, 3), ...columns(runs, 2),
  ]);
  const worst = new Map<string, number>();
  const newRuns = new Map<string, number>();
  for (const r of returned) {
    if (Number(r.kind) === 0) worst.set(r.issue_id, Math.max(worst.get(r.issue_id) ?? 0, Number(r.failures)));
    else newRuns.set(r.issue_id, (newRuns.get(r.issue_id) ?? 0) + 1);
  }
  return { worst, newRuns };
}

/** Judges the triage of the issues whose state a failure can change (resolved, ignored), with their releases. */
async function judge(tx: PgTx, project: string, issues: readonly IssueBatch[], totals: readonly (TotalsRow & { id: string })[], worst: Map<string, number>, now: number) {
  const judged = totals.filter((t) => t.state === "resolved" || t.state === "ignored");
  if (judged.length === 0) return;
  const releaseRows = await queryNamed<{ issue_id: string; release: string; first_seen: string | number }>(tx, SQL.releaseList, [project, judged.map((t) => t.id)]);
  const byIssue = new Map(issues.map((b) => [b.id, b]));
  const events: [string, string, string][] = [];
  // In (tool, code) order, as the issues were locked.
  for (const b of issues) {
    const row = judged.find((t) => t.id === b.id);
    if (!row) continue;
    const before: Triage = { state: row.state, resolveMode: row.resolve_mode, resolveRelease: row.resolve_release, resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at), ignoreMode: row.ignore_mode, ignoreLimit: row.ignore_limit === null ? null : Number(row.ignore_limit) };
    const { triage, event } = applyFailures(before, {
      failures: byIssue.get(b.id)!.failures,
      totalFailures: Number(row.failures),
      worstHour: worst.get(b.id) ?? 0,
      releases: releaseRows.filter((r) => r.issue_id === b.id).map((r) => ({ release: r.release, firstSeen: Number(r.first_seen) })),
    });
    if (event === null) continue;
    await queryNamed(tx, ISSUE_SQL.triagePositional, [project, b.id, triage.state, triage.resolveMode, triage.resolveRelease, triage.resolvedAt, triage.ignoreMode, triage.ignoreLimit]);
    events.push([b.id, event.kind, event.detail]);
  }
  if (events.length > 0) await queryNamed(tx, SQL.events, [project, now, ...columns(events, 3)]);
}

/** PostgreSQL: the batch's issues, in the ingest's transaction, in a fixed number of statements. */
export async function applyIssuesPg(tx: PgTx, projectId: string, batch: RowBatch, written: WrittenFlags, now: number, codeOf?: IssueCodeOf): Promise<void> {
  const issues = issueBatches(projectId, newSpans(batch, written), codeOf);
  if (issues.length === 0) return;
  const ids = issues.map((b) => b.id);
  const created = await queryNamed<{ id: string }>(tx, SQL.create, [
    projectId, now, ids, issues.map((b) => b.tool), issues.map((b) => b.code), issues.map((b) => b.firstSeen), issues.map((b) => b.lastSeen),
  ]);
  if (created.length > 0) {
    const fresh = new Set(created.map((r) => r.id));
    const events = issues.filter((b) => fresh.has(b.id)).map((b) => [b.id, "created", `first failed in ${b.failures[0]!.release}`] as const);
    await queryNamed(tx, SQL.events, [projectId, now, ...columns(events, 3)]);
  }
  const { worst, newRuns } = await upsertCounters(tx, projectId, issues);
  const totals = await queryNamed<TotalsRow & { id: string }>(tx, SQL.totals, [
    projectId, now, ids,
    issues.map((b) => b.failures.length), issues.map((b) => b.unrecovered), issues.map((b) => b.retries), issues.map((b) => b.waitMs),
    issues.map((b) => newRuns.get(b.id) ?? 0), issues.map((b) => worst.get(b.id) ?? 0), issues.map((b) => b.firstSeen), issues.map((b) => b.lastSeen),
  ]);
  await judge(tx, projectId, issues, totals, worst, now);
}
