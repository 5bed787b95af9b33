import type { AlertNotification } from "@/lib/alerts/notification";
import type { Experiment, Verdict } from "@/lib/contracts/experiments";

/** The experiments page of one experiment, relative to the dashboard. */
export const experimentLink = (project: string, id: string) => `/experiments/${encodeURIComponent(id)}?project=${encodeURIComponent(project)}`;

/**
 * The alert sent when a guard stops an experiment: a firing notification of no rule (id 0), in the
 * shape every receiver format already renders, so webhooks, Slack, email and PagerDuty carry it as
 * they carry rule alerts.
 */
export function guardNotification(e: Experiment, verdict: Verdict, at: number, publicUrl: string): AlertNotification {
  return {
    project: e.project,
    rule: { id: 0, name: `Experiment guard: ${e.id}`, kind: "experiment_guard" },
    status: "firing",
    tool: e.tool ?? "",
    code: e.code,
    value: `${verdict.variant ?? "a variant"} tripped the ${verdict.metric ?? "guard"} guard`,
    at,
    link: publicUrl.replace(/\/$/, "") + experimentLink(e.project, e.id),
    summary: `Experiment ${e.id} was stopped: ${verdict.message}. The code's own wording is told again.`,
    threshold: `guards: repeat rate +${e.guards.repeatRate}, run-failed rate +${e.guards.runFailedRate}, calls until recovery +${e.guards.callsUntilRecovery}`,
    since: e.startedAt ?? at,
    durationMs: null,
    codes: [{ code: e.code, count: 1 }],
    releases: [],
    environments: [],
    runs: [],
    // An experiment is not an issue of a tool and code.
    issue: null,
  };
}
