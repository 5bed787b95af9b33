import type { ReleaseHealth, ToolHealth } from "@/lib/contracts/releases";
import { releaseIssues, type IssueInReleases } from "@/lib/triage/release-issues";
import type { Executor } from "../client";
import { listIssueReleaseRows, listIssueRows, triageOf } from "../issues/list-issues";
import { callsNotOk, listReleaseSummaries, type ReleaseCell } from "./list-releases";

type Told = { decided: number; recovered: number };

/** Surfaced errors decided and recovered from, per tool, in two releases (the told counts, docs/after-told.md). */
async function toldPerTool(db: Executor, project: string, releases: readonly string[]): Promise<Map<string, Told>> {
  const rows = await db.all<{ tool: string; release: string; decided: number; recovered: number }>(
    `SELECT tool, release, sum(CASE WHEN step <> 'pending' THEN errors ELSE 0 END) AS decided,
       sum(CASE WHEN step IN ('recovered', 'replaced') THEN errors ELSE 0 END) AS recovered
     FROM told_step_counts WHERE project_id = ? AND release IN (?, ?) GROUP BY tool, release ORDER BY tool, release`,
    [project, releases[0] ?? "", releases[1] ?? releases[0] ?? ""],
  );
  return new Map(rows.map((r) => [`${r.tool}\u0000${r.release}`, { decided: Number(r.decided), recovered: Number(r.recovered) }]));
}

function health(cells: readonly ReleaseCell[], told: Told | undefined): ToolHealth {
  const c = callsNotOk(cells);
  const t = told ?? { decided: 0, recovered: 0 };
  return { ...c, failureShare: c.calls === 0 ? null : c.callsNotOk / c.calls, told: t, selfCorrection: t.decided === 0 ? null : t.recovered / t.decided };
}

/**
 * One release's health: every tool's calls, failure share and self-correction in it and in the
 * release before it (drift's order), and the issues it brought, brought back and fixed. Null when the
 * project's spans never named that release.
 */
export async function getReleaseHealth(db: Executor, project: string, release: string, now: number): Promise<ReleaseHealth | null> {
  const { order, releases, cells } = await listReleaseSummaries(db, project);
  const index = releases.findIndex((r) => r.release === release);
  const summary = releases[index];
  if (!summary) return null;
  const previous = index > 0 ? releases[index - 1]!.release : null;
  const [told, rows, releaseRows] = await Promise.all([
    toldPerTool(db, project, previous === null ? [release] : [release, previous]),
    listIssueRows(db, project),
    listIssueReleaseRows(db, project),
  ]);
  const tools = [...new Set(cells.filter((c) => c.release === release || c.release === previous).map((c) => c.tool))].sort();
  const cellsOf = (tool: string, r: string) => cells.filter((c) => c.tool === tool && c.release === r);
  const releasesOf = new Map<string, typeof releaseRows>();
  for (const x of releaseRows) (releasesOf.get(x.issueId) ?? releasesOf.set(x.issueId, []).get(x.issueId)!).push(x);
  const issues: IssueInReleases[] = rows.map((r) => ({ id: r.id, tool: r.tool, code: r.code, triage: triageOf(r), releases: releasesOf.get(r.id) ?? [] }));
  return {
    release,
    previous,
    order,
    firstSeen: summary.firstSeen,
    lastSeen: summary.lastSeen,
    runs: summary.runs,
    tools: tools.map((tool) => ({
      tool,
      ...health(cellsOf(tool, release), told.get(`${tool}\u0000${release}`)),
      previous: previous === null || cellsOf(tool, previous).length === 0 ? null : health(cellsOf(tool, previous), told.get(`${tool}\u0000${previous}`)),
    })),
    issues: releaseIssues(issues, release, previous, new Set(releases.slice(0, index).map((r) => r.release)), now),
  };
}
