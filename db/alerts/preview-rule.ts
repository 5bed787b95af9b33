import type { Executor } from "../client";
import { PREVIEW_DAYS, PREVIEW_STEP_MS, previewRule, type IssueHistoryEvent, type RulePreview } from "@/lib/alerts/preview";
import type { AlertRuleParams } from "@/lib/contracts/alerts";
import { loadAlertFacts } from "./facts";
import { listPreviewBuckets } from "./preview-buckets";
import { getSlo } from "../slos/slos";
import { sloCallBuckets, sloToolsSince } from "../slos/slo-counts";
import { countCalls } from "@/lib/slo/burn";
import { replaySloBurn } from "@/lib/slo/burn-replay";

const DAY = 86_400_000;

/** How often a rule with these params would have fired over the project's last {@link PREVIEW_DAYS} days. */
export async function previewAlertRule(db: Executor, project: string, params: AlertRuleParams, now: number): Promise<RulePreview> {
  const from = now - PREVIEW_DAYS * DAY;
  if (params.kind === "issue_regressed") {
    const events = await db.all<IssueHistoryEvent>(
      `SELECT i.tool, i.code, e.at, e.kind, e.detail FROM issue_events e JOIN issues i ON i.project_id = e.project_id AND i.id = e.issue_id
       WHERE e.project_id = ? AND e.kind IN ('regressed', 'state') AND e.at < ? ORDER BY e.at, e.id`,
      [project, now],
    );
    return previewRule(params, { buckets: [], newCodes: [], drift: [], regressions: events.map((e) => ({ ...e, at: Number(e.at) })), from, to: now });
  }
  if (params.kind === "new_code" || params.kind === "drift") {
    // A new code rule counts codes first seen in the week, as if created at its start.
    const facts = await loadAlertFacts(db, project, params, from, now);
    return previewRule(params, { buckets: [], newCodes: facts.newCodes, drift: facts.drift, from, to: now });
  }
  if (params.kind === "slo_burn") return previewSloBurn(db, project, params, from, now);
  // Two windows before the first step: a refusal spike compares with the window before.
  const buckets = await listPreviewBuckets(db, project, { ...(params.tool ? { tool: params.tool } : {}), from: from - 2 * params.windowMinutes * 60_000, to: now });
  return previewRule(params, { buckets, newCodes: [], drift: [], from, to: now });
}

/** An SLO burn rule replayed on the SLO's 5-minute counts (6 h before the week for the long window); an unknown SLO never fires. */
async function previewSloBurn(db: Executor, project: string, params: Extract<AlertRuleParams, { kind: "slo_burn" }>, from: number, now: number): Promise<RulePreview> {
  const slo = await getSlo(db, params.slo);
  if (!slo || slo.project !== project) return { from, to: now, stepMinutes: PREVIEW_STEP_MS / 60_000, notifications: 0, episodes: [] };
  const start = from - 6 * 3_600_000;
  const tools = await sloToolsSince(db, project, slo.tools, start);
  const buckets = await sloCallBuckets(db, { project, tools, from: start, to: now, bucketMs: PREVIEW_STEP_MS });
  const steps = buckets.map((b) => ({ at: b.at, ...countCalls(b.groups, slo) }));
  return replaySloBurn(params, slo, steps, from, now);
}
