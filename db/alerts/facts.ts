import type { Executor } from "../client";
import { getSlo } from "../slos/slos";
import { sloBurnRates } from "../slos/slo-status";
import type { AlertFacts, RegressedIssueFact, ToolWindowFacts } from "@/lib/alerts/evaluate";
import type { AlertRuleParams } from "@/lib/contracts/alerts";
import { latestRelease } from "@/lib/triage/issue-state";
import type { DriftFinding, DriftKind, DriftSeverity } from "@/lib/contracts/drift";

const MINUTE = 60_000;

interface ToolRow {
  tool: string;
  calls: number | string;
  failed_calls: number | string;
  retries: number | string | null;
  refusals: number | string | null;
  previous_refusals: number | string | null;
  failed_closed: number | string | null;
}

/**
 * Per tool, the attempts started in [now - window, now) and the refusals of the window before it.
 * A failed call is one whose failing attempt was not retried (its last word was a failure).
 */
async function toolWindows(db: Executor, project: string, windowMinutes: number, now: number): Promise<ToolWindowFacts[]> {
  const from = now - windowMinutes * MINUTE;
  const rows = await db.all<ToolRow>(
    `SELECT tool,
       COUNT(DISTINCT CASE WHEN started_at >= @from THEN call_id END) AS calls,
       COUNT(DISTINCT CASE WHEN started_at >= @from AND outcome IS NOT NULL AND outcome <> 'ok' AND (decision IS NULL OR decision <> 'retried') THEN call_id END) AS failed_calls,
       SUM(CASE WHEN started_at >= @from AND decision = 'retried' THEN 1 ELSE 0 END) AS retries,
       SUM(CASE WHEN started_at >= @from AND outcome IN ('refused', 'declined') THEN 1 ELSE 0 END) AS refusals,
       SUM(CASE WHEN started_at < @from AND outcome IN ('refused', 'declined') THEN 1 ELSE 0 END) AS previous_refusals,
       SUM(CASE WHEN started_at >= @from AND decision = 'failed_closed' THEN 1 ELSE 0 END) AS failed_closed
     FROM tool_call_spans
     WHERE project_id = @project AND started_at >= @previous AND started_at < @now
     GROUP BY tool ORDER BY tool`,
    { project, from, previous: from - windowMinutes * MINUTE, now },
  );
  return rows.map((r) => ({
    tool: r.tool,
    calls: Number(r.calls),
    failedCalls: Number(r.failed_calls),
    retries: Number(r.retries ?? 0),
    refusals: Number(r.refusals ?? 0),
    previousRefusals: Number(r.previous_refusals ?? 0),
    failedClosed: Number(r.failed_closed ?? 0),
  }));
}

/** The project's regressed issues, each with why its latest `regressed` event says it regressed and its latest release, by tool and code. */
export async function regressedIssues(db: Executor, project: string): Promise<RegressedIssueFact[]> {
  const rows = await db.all<{ id: string; tool: string; code: string; detail: string | null }>(
    `SELECT i.id, i.tool, i.code, e.detail FROM issues i
     LEFT JOIN issue_events e ON e.id = (SELECT MAX(x.id) FROM issue_events x WHERE x.project_id = i.project_id AND x.issue_id = i.id AND x.kind = 'regressed')
     WHERE i.project_id = ? AND i.state = 'regressed' ORDER BY i.tool, i.code`,
    [project],
  );
  const releases = await db.all<{ issue_id: string; release: string; first_seen: number | string }>(
    "SELECT r.issue_id, r.release, r.first_seen FROM issue_releases r JOIN issues i ON i.project_id = r.project_id AND i.id = r.issue_id WHERE r.project_id = ? AND i.state = 'regressed' ORDER BY r.issue_id, r.release",
    [project],
  );
  const releasesOf = (id: string) => releases.filter((r) => r.issue_id === id).map((r) => ({ release: r.release, firstSeen: Number(r.first_seen) }));
  return rows.map((r) => ({
    issueId: r.id, tool: r.tool, code: r.code, release: latestRelease(releasesOf(r.id)), detail: r.detail ?? "failed again after it was resolved",
  }));
}

/** What a rule of this kind reads: only its own part is loaded. */
export async function loadAlertFacts(db: Executor, project: string, params: AlertRuleParams, ruleCreatedAt: number, now: number): Promise<AlertFacts> {
  const facts: AlertFacts = { tools: [], newCodes: [], drift: [] };
  if (params.kind === "new_code") {
    const rows = await db.all<{ tool: string; code: string; first_seen: number | string }>(
      "SELECT tool, code, MIN(first_seen) AS first_seen FROM codes WHERE project_id = ? GROUP BY tool, code HAVING MIN(first_seen) >= ? ORDER BY tool, code",
      [project, ruleCreatedAt],
    );
    return { ...facts, newCodes: rows.map((r) => ({ tool: r.tool, code: r.code, firstSeen: Number(r.first_seen) })) };
  }
  if (params.kind === "drift") {
    const rows = await db.all<{ finding_id: string; tool: string; code: string; kind: DriftKind; severity: DriftSeverity; body: string }>(
      "SELECT finding_id, tool, code, kind, severity, body FROM drift_findings WHERE project_id = ? ORDER BY rank",
      [project],
    );
    return {
      ...facts,
      drift: rows.map((r) => {
        const f = JSON.parse(r.body) as Partial<DriftFinding>;
        const firstSeen = f.after?.firstSeen ?? f.selfCorrection?.after.firstSeen;
        return {
          findingId: r.finding_id, tool: r.tool, code: r.code, kind: r.kind, severity: r.severity, sentence: String(f.sentence ?? ""),
          release: f.toRelease, firstSeen, runs: f.exampleRuns?.after ?? [],
        };
      }),
    };
  }
  if (params.kind === "issue_regressed") return { ...facts, regressed: await regressedIssues(db, project) };
  if (params.kind === "slo_burn") {
    const slo = await getSlo(db, params.slo);
    if (!slo || slo.project !== project) return facts;
    return { ...facts, slo: { id: slo.id, name: slo.name, tools: slo.tools, objective: slo.objective, rates: await sloBurnRates(db, slo, now) } };
  }
  return { ...facts, tools: await toolWindows(db, project, params.windowMinutes, now) };
}
