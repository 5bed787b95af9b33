import type { Executor } from "../client";
import type { AlertContext } from "@/lib/alerts/describe";

/** Which attempts an alert is about: its rule kind's own measure. */
export type AlertMatch = "failed" | "retried" | "refused" | "failed_closed" | "code";

const MATCH_SQL: Record<AlertMatch, string> = {
  // The same predicates as the rule facts (facts.ts), so the runs shown are the ones counted.
  failed: "outcome IS NOT NULL AND outcome <> 'ok' AND (decision IS NULL OR decision <> 'retried')",
  retried: "decision = 'retried'",
  refused: "outcome IN ('refused', 'declined')",
  failed_closed: "decision = 'failed_closed'",
  code: "code = @code",
};

const TOP = 3;

// A span's release, tool version and environment are its emitter's (db/schema/span-emitters.ts): the
// dictionary is joined (a primary-key lookup per span) only by the reads that name them.
const WITH_EMITTER = "tool_call_spans s CROSS JOIN span_emitters em";

/**
 * The codes, releases, environments, first time and top runs of a tool's matching attempts started in
 * [from, to) (and, for one code, in one release when given): what an alert message names. Ties are
 * broken by name so both engines answer alike.
 */
export async function loadAlertContext(
  db: Executor,
  project: string,
  q: { tool: string; match: AlertMatch; code?: string; release?: string; from: number; to: number },
): Promise<AlertContext> {
  const own = `s.project_id = @project AND tool = @tool AND started_at >= @from AND started_at < @to AND ${MATCH_SQL[q.match]}`;
  const emitter = `${own} AND em.id = s.emitter_id${q.release === undefined ? "" : " AND (release = @release OR tool_version = @release)"}`;
  const params = { project, tool: q.tool, code: q.code ?? "", release: q.release ?? "", from: q.from, to: q.to };
  // Without a release to match, codes, runs and the first time read the spans alone.
  const [spans, filter] = q.release === undefined ? ["tool_call_spans s", own] : [WITH_EMITTER, emitter];
  const codes = await db.all<{ code: string; n: number | string }>(
    `SELECT code, count(*) AS n FROM ${spans} WHERE ${filter} AND code IS NOT NULL GROUP BY code ORDER BY count(*) DESC, code LIMIT ${TOP}`,
    params,
  );
  const releases = await db.all<{ label: string }>(
    `SELECT COALESCE(release, tool_version) AS label FROM ${WITH_EMITTER} WHERE ${emitter} AND COALESCE(release, tool_version) IS NOT NULL
     GROUP BY COALESCE(release, tool_version) ORDER BY count(*) DESC, COALESCE(release, tool_version) LIMIT ${TOP}`,
    params,
  );
  const environments = await db.all<{ environment: string }>(
    `SELECT environment FROM ${WITH_EMITTER} WHERE ${emitter} AND environment IS NOT NULL GROUP BY environment ORDER BY count(*) DESC, environment LIMIT ${TOP}`,
    params,
  );
  const runs = await db.all<{ run_id: string }>(
    `SELECT run_id FROM ${spans} WHERE ${filter} GROUP BY run_id ORDER BY count(*) DESC, max(started_at) DESC, run_id LIMIT ${TOP}`,
    params,
  );
  const first = await db.get<{ at: number | string | null }>(`SELECT min(started_at) AS at FROM ${spans} WHERE ${filter}`, params);
  return {
    codes: codes.map((r) => ({ code: r.code, count: Number(r.n) })),
    releases: releases.map((r) => r.label),
    environments: environments.map((r) => r.environment),
    runs: runs.map((r) => r.run_id),
    firstAt: first?.at == null ? null : Number(first.at),
  };
}
