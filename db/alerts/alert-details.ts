import type { Executor } from "../client";
import { EMPTY_CONTEXT, formatDuration, measureOf, summaryOf, thresholdOf, type AlertContext } from "@/lib/alerts/describe";
import type { AlertFacts, AlertTransition } from "@/lib/alerts/evaluate";
import type { NotificationDetails } from "@/lib/alerts/notification";
import type { AlertRuleParams } from "@/lib/contracts/alerts";
import type { IssueState } from "@/lib/contracts/issues";
import { issueId } from "@/lib/triage/issue-batch";
import { stateAt } from "@/lib/triage/issue-state";
import { getIssueRow, triageOf } from "../issues/list-issues";
import { sloAlertDetails } from "../slos/slo-alert-details";
import { loadAlertContext, type AlertMatch } from "./context";

const MINUTE = 60_000;

const MATCH: Record<Exclude<AlertRuleParams["kind"], "new_code" | "drift" | "issue_regressed" | "slo_burn">, AlertMatch> = {
  failure_rate: "failed",
  retry_storm: "retried",
  refusal_spike: "refused",
  failed_closed: "failed_closed",
};

/** The attempts behind a state change: the rule's window (from when it fired, for a resolution), the code's life, the finding's release, or the failures since a regression. */
async function contextOf(db: Executor, project: string, params: AlertRuleParams, facts: AlertFacts, change: AlertTransition, firedAt: number | null, now: number): Promise<AlertContext> {
  if (params.kind === "drift") {
    const f = facts.drift.find((d) => d.tool === change.tool && d.code === change.code && change.key.includes(JSON.stringify(d.findingId)));
    const release = f?.release;
    const found = await loadAlertContext(db, project, { tool: change.tool, match: "code", code: change.code, ...(release ? { release } : {}), from: 0, to: now + 1 });
    return { ...found, releases: release ? [release] : found.releases, runs: f?.runs?.length ? [...f.runs] : found.runs, firstAt: f?.firstSeen ?? found.firstAt };
  }
  if (params.kind === "slo_burn") return EMPTY_CONTEXT;
  if (params.kind === "new_code") return loadAlertContext(db, project, { tool: change.tool, match: "code", code: change.code, from: 0, to: now + 1 });
  if (params.kind === "issue_regressed") {
    // The failures of the release that brought it back (they may have started before ingest judged them).
    const release = facts.regressed?.find((x) => x.tool === change.tool && x.code === change.code)?.release;
    return loadAlertContext(db, project, { tool: change.tool, match: "code", code: change.code, ...(release ? { release } : {}), from: 0, to: now + 1 });
  }
  const window = params.windowMinutes * MINUTE;
  return loadAlertContext(db, project, { tool: change.tool, match: MATCH[params.kind], from: (firedAt ?? now) - window, to: now + 1 });
}

/** The issue of a tool and code and its state now, or null when that code never opened one. */
async function issueOf(db: Executor, project: string, tool: string, code: string, now: number): Promise<{ id: string; state: IssueState } | null> {
  const row = await getIssueRow(db, issueId(project, tool, code));
  return row === null ? null : { id: row.id, state: stateAt(triageOf(row), now) };
}

/**
 * What makes a state change a message: the threshold it crossed, the codes, releases, environments
 * and runs behind it, since when, and for a resolution the measurement now and how long it fired.
 */
export async function alertDetails(
  db: Executor,
  project: string,
  params: AlertRuleParams,
  facts: AlertFacts,
  change: AlertTransition,
  firedAt: number | null,
  now: number,
): Promise<NotificationDetails> {
  if (params.kind === "slo_burn") return sloAlertDetails(db, facts.slo, change, firedAt, now);
  const context = await contextOf(db, project, params, facts, change, firedAt, now).catch(() => EMPTY_CONTEXT);
  const threshold = thresholdOf(params);
  const resolved = change.status === "resolved";
  const since = resolved ? (firedAt ?? now) : (context.firstAt ?? now);
  const durationMs = resolved && firedAt !== null ? now - firedAt : null;
  const measureNow = resolved ? measureOf(params, facts.tools.find((t) => t.tool === change.tool)) : null;
  const summary = summaryOf({ status: change.status, tool: change.tool, code: change.code, value: change.value, threshold, context, since, durationMs, measureNow });
  const lasted = durationMs === null ? "resolved" : `resolved after ${formatDuration(durationMs)}`;
  const value = resolved ? (measureNow ? `${lasted}; now ${measureNow}` : lasted) : change.value;
  const code = change.code || (context.codes[0]?.code ?? "");
  const issue = code === "" ? null : await issueOf(db, project, change.tool, code, now).catch(() => null);
  return { value, summary, threshold, since, durationMs, context, issue };
}
