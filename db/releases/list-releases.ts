import type { ReleaseSummary, ReleasesAnswer, ReleasesQuery } from "@/lib/contracts/releases";
import { orderReleases } from "@/lib/drift/semver";
import type { Executor } from "../client";

const DAY_MS = 86_400_000;

/** One tool's calls in one release by outcome, all time (hourly rollup: first and last seen to the hour). */
export interface ReleaseCell {
  release: string;
  tool: string;
  outcome: string;
  calls: number;
  attempts: number;
  firstSeen: number;
  lastSeen: number;
}

/** Every (release, tool, outcome) cell of a project's spans that named a release. */
export async function listReleaseCells(db: Executor, project: string): Promise<ReleaseCell[]> {
  const rows = await db.all<ReleaseCell>(
    `SELECT release, tool, outcome, sum(first_attempts + unnumbered) AS calls, sum(spans) AS attempts, min(hour) AS "firstSeen", max(hour) AS "lastSeen"
     FROM span_rollups_hourly WHERE project_id = ? AND release <> '' GROUP BY release, tool, outcome ORDER BY release, tool, outcome`,
    [project],
  );
  return rows.map((r) => ({ ...r, calls: Number(r.calls), attempts: Number(r.attempts), firstSeen: Number(r.firstSeen), lastSeen: Number(r.lastSeen) }));
}

/** Calls that did not end ok: calls less the ok attempts (a retried call that succeeded ended ok), never below zero. */
export function callsNotOk(cells: readonly Pick<ReleaseCell, "outcome" | "calls" | "attempts">[]): { calls: number; callsNotOk: number } {
  let calls = 0;
  let ok = 0;
  for (const c of cells) {
    calls += c.calls;
    if (c.outcome === "ok") ok += c.attempts;
  }
  return { calls, callsNotOk: Math.max(0, calls - ok) };
}

// A run's release: its run record's, else what its spans named (run_stats), as the runs list reads it.
const RUN_RELEASE = "COALESCE(NULLIF(r.release, ''), s.release)";
const RUNS_FROM = "FROM run_stats s LEFT JOIN runs r ON r.project_id = s.project_id AND r.run_id = s.run_id WHERE s.project_id = @project";

/** Runs per release, all time. */
async function runsPerRelease(db: Executor, project: string): Promise<Map<string, number>> {
  const rows = await db.all<{ release: string; runs: number }>(`SELECT ${RUN_RELEASE} AS release, count(*) AS runs ${RUNS_FROM} GROUP BY ${RUN_RELEASE} ORDER BY 1`, { project });
  return new Map(rows.map((r) => [r.release, Number(r.runs)]));
}

/** A project's releases ordered as drift orders them (oldest first), with their traffic and runs. */
export async function listReleaseSummaries(db: Executor, project: string): Promise<{ order: ReleasesAnswer["order"]; releases: ReleaseSummary[]; cells: ReleaseCell[] }> {
  const [cells, runs] = await Promise.all([listReleaseCells(db, project), runsPerRelease(db, project)]);
  const byRelease = new Map<string, ReleaseCell[]>();
  for (const c of cells) (byRelease.get(c.release) ?? byRelease.set(c.release, []).get(c.release)!).push(c);
  const summaries = [...byRelease].map(([release, cs]): ReleaseSummary => ({
    release,
    firstSeen: Math.min(...cs.map((c) => c.firstSeen)),
    lastSeen: Math.max(...cs.map((c) => c.lastSeen)),
    ...callsNotOk(cs),
    runs: runs.get(release) ?? 0,
  }));
  const ordered = orderReleases(summaries);
  return { order: ordered.order, releases: ordered.items, cells };
}

/** The releases and, per UTC day of the last `days`, the runs started on each release. */
export async function listReleases(db: Executor, q: ReleasesQuery, now: number): Promise<ReleasesAnswer> {
  const to = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const from = to - q.days * DAY_MS;
  const [{ order, releases }, rows] = await Promise.all([
    listReleaseSummaries(db, q.project),
    db.all<{ day: number; release: string; runs: number }>(
      `SELECT (s.first_started_at / ${DAY_MS}) * ${DAY_MS} AS day, ${RUN_RELEASE} AS release, count(*) AS runs
       ${RUNS_FROM} AND s.first_started_at >= @from AND s.first_started_at < @to GROUP BY 1, 2 ORDER BY 1, 2`,
      { project: q.project, from, to },
    ),
  ]);
  const days = new Map<number, Record<string, number>>();
  for (const r of rows) {
    const at = Number(r.day);
    (days.get(at) ?? days.set(at, {}).get(at)!)[r.release] = Number(r.runs);
  }
  return { order, releases, adoption: { from, to, stepMs: DAY_MS, days: [...days].map(([at, runs]) => ({ at, runs })) } };
}
