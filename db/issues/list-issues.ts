import type { IssueDetail, IssueGroup, IssuesAnswer, IssuesQuery, IssueSummary } from "@/lib/contracts/issues";
import { orderReleases } from "@/lib/drift/semver";
import { countIssueStates } from "@/lib/triage/issue-counts";
import { stateAt, type Triage } from "@/lib/triage/issue-state";
import { rankIssues } from "@/lib/triage/rank";
import type { Executor } from "../client";
import { groupFactsByCode } from "./group-issue-facts";
import { listIssueAlerts } from "./issue-alerts";
import { namedAsOf } from "./resolve-named-groups";

const DAY_MS = 86_400_000;

/** An issue row with its assignee's name, as stored. */
export interface IssueRow {
  project: string;
  id: string;
  tool: string;
  code: string;
  state: Triage["state"];
  resolveMode: Triage["resolveMode"];
  resolveRelease: string | null;
  resolvedAt: number | null;
  ignoreMode: Triage["ignoreMode"];
  ignoreLimit: number | null;
  assigneeUserId: string | null;
  assigneeName: string | null;
  failures: number;
  unrecovered: number;
  retries: number;
  waitMs: number;
  runs: number;
  worstHour: number;
  firstSeen: number;
  lastSeen: number;
}

const ISSUE_SQL = `SELECT i.project_id AS "project", i.id, i.tool, i.code, i.state, i.resolve_mode AS "resolveMode", i.resolve_release AS "resolveRelease",
    i.resolved_at AS "resolvedAt", i.ignore_mode AS "ignoreMode", i.ignore_limit AS "ignoreLimit", i.assignee_user_id AS "assigneeUserId",
    u.name AS "assigneeName", i.failures, i.unrecovered, i.retries, i.wait_ms AS "waitMs", i.runs, i.worst_hour AS "worstHour",
    i.first_seen AS "firstSeen", i.last_seen AS "lastSeen"
  FROM issues i LEFT JOIN users u ON u.id = i.assignee_user_id`;

export const triageOf = (r: IssueRow): Triage => ({
  state: r.state, resolveMode: r.resolveMode, resolveRelease: r.resolveRelease, resolvedAt: r.resolvedAt, ignoreMode: r.ignoreMode, ignoreLimit: r.ignoreLimit,
});

/** One issue by id (ids are derived from project, tool and code, so they name one project), or null. */
export async function getIssueRow(db: Executor, id: string): Promise<IssueRow | null> {
  return (await db.get<IssueRow>(`${ISSUE_SQL} WHERE i.id = ?`, [id])) ?? null;
}

/** A project's issues, as stored, by id. */
export const listIssueRows = (db: Executor, project: string) => db.all<IssueRow>(`${ISSUE_SQL} WHERE i.project_id = ? ORDER BY i.id`, [project]);

type ReleaseRow = { issueId: string; release: string; firstSeen: number; lastSeen: number; failures: number };

/** Failures per issue and release of a project, by issue id and release. */
export const listIssueReleaseRows = (db: Executor, project: string) =>
  db.all<ReleaseRow>(
    `SELECT issue_id AS "issueId", release, first_seen AS "firstSeen", last_seen AS "lastSeen", failures FROM issue_releases WHERE project_id = ? ORDER BY issue_id, release`,
    [project],
  );

function summaryOf(r: IssueRow, releases: readonly ReleaseRow[], trend: { current: number; previous: number }, group: IssueGroup | undefined, now: number): IssueSummary {
  const ordered = orderReleases(releases).items;
  return {
    id: r.id, tool: r.tool, code: r.code, state: stateAt(triageOf(r), now),
    resolution: r.state === "resolved" || r.state === "regressed" ? (r.resolveMode ? { mode: r.resolveMode, release: r.resolveRelease, at: r.resolvedAt ?? 0 } : null) : null,
    ignore: r.state === "ignored" && r.ignoreMode ? { mode: r.ignoreMode, limit: r.ignoreLimit ?? 0 } : null,
    assignee: r.assigneeUserId ? { userId: r.assigneeUserId, name: r.assigneeName ?? r.assigneeUserId } : null,
    failures: r.failures, unrecovered: r.unrecovered, runs: r.runs, retries: r.retries, waitMs: r.waitMs, trend,
    firstSeen: r.firstSeen, lastSeen: r.lastSeen,
    releases: { first: ordered[0]?.release ?? "", last: ordered.at(-1)?.release ?? "", count: ordered.length },
    group: group ?? null,
  };
}

/** Releases and 24-hour trends of a project's issues, by issue id. */
async function factsOf(db: Executor, project: string, now: number) {
  const [releases, hours] = await Promise.all([
    listIssueReleaseRows(db, project),
    db.all<{ issueId: string; current: number; previous: number }>(
      `SELECT issue_id AS "issueId", SUM(CASE WHEN hour >= ? THEN failures ELSE 0 END) AS "current", SUM(CASE WHEN hour < ? THEN failures ELSE 0 END) AS "previous"
       FROM issue_hours WHERE project_id = ? AND hour >= ? AND hour <= ? GROUP BY issue_id ORDER BY issue_id`,
      [now - DAY_MS, now - DAY_MS, project, now - 2 * DAY_MS, now],
    ),
  ]);
  const releasesOf = new Map<string, ReleaseRow[]>();
  for (const r of releases) (releasesOf.get(r.issueId) ?? releasesOf.set(r.issueId, []).get(r.issueId)!).push(r);
  const trendOf = new Map(hours.map((h) => [h.issueId, { current: Number(h.current), previous: Number(h.previous) }]));
  return { releasesOf, trendOf };
}

/** A project's issues ranked by impact (lib/triage/rank.ts), filtered, with the counts per state. */
export async function listIssues(db: Executor, query: IssuesQuery, now: number): Promise<IssuesAnswer> {
  const [rows, facts] = await Promise.all([listIssueRows(db, query.project), factsOf(db, query.project, now)]);
  const groups = await groupFactsByCode(db, query.project, rows.map((r) => r.code));
  const all = rows.map((r) => summaryOf(r, facts.releasesOf.get(r.id) ?? [], facts.trendOf.get(r.id) ?? { current: 0, previous: 0 }, groups.get(r.code), now));
  const counts = countIssueStates(all.map((i) => i.state));
  const issues = all.filter(
    (i) =>
      (query.state === undefined || (query.state === "unresolved" ? i.state === "open" || i.state === "regressed" : i.state === query.state)) &&
      (query.tool === undefined || i.tool === query.tool) &&
      (query.code === undefined || i.code === query.code) &&
      (query.assignee === undefined || (query.assignee === "none" ? i.assignee === null : i.assignee?.userId === query.assignee)),
  );
  return { counts, issues: rankIssues(issues) };
}

/** One issue of a project with its releases in release order and its history, oldest first; null when the project has no such issue. */
export async function getIssueDetail(db: Executor, project: string, id: string, now: number): Promise<IssueDetail | null> {
  const row = await db.get<IssueRow>(`${ISSUE_SQL} WHERE i.project_id = ? AND i.id = ?`, [project, id]);
  if (!row) return null;
  const [facts, history, alerts, groups] = await Promise.all([
    factsOf(db, project, now),
    db.all<IssueDetail["history"][number]>(
      `SELECT at, actor_label AS "actor", kind, detail FROM issue_events WHERE project_id = ? AND issue_id = ? ORDER BY id`,
      [project, id],
    ),
    listIssueAlerts(db, project, id),
    groupFactsByCode(db, project, [row.code]),
  ]);
  const releases = orderReleases(facts.releasesOf.get(id) ?? []).items.map(({ release, firstSeen, lastSeen, failures }) => ({ release, firstSeen, lastSeen, failures }));
  const issue = summaryOf(row, releases.map((r) => ({ ...r, issueId: id })), facts.trendOf.get(id) ?? { current: 0, previous: 0 }, groups.get(row.code), now);
  return { issue, releases, history, alerts, namedAs: issue.group ? await namedAsOf(db, project, row.tool, history) : null };
}
