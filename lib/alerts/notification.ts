import type { AlertRuleKind, AlertStatus } from "@/lib/contracts/alert-enums";
import { issueId } from "@/lib/triage/issue-batch";
import { EMPTY_CONTEXT, formatDuration, formatUtc, type AlertContext } from "./describe";

/** A notification as the outbox keeps it and the generic JSON receiver gets it. */
export interface AlertNotification {
  project: string;
  /** `experiment_guard`: no rule, a wording experiment stopped by its guard (docs/experiments.md). */
  rule: { id: number; name: string; kind: AlertRuleKind | "experiment_guard" };
  status: AlertStatus;
  tool: string;
  /** Empty for per-tool rules (failure rate, retry storm, refusal spike, failed closed). */
  code: string;
  value: string;
  at: number;
  /** The dashboard page that explains the alert: the drift findings, the code, or the tool. */
  link: string;
  /** One sentence: what crossed which threshold, where, since when (and for resolved, how long it lasted). */
  summary: string;
  /** The rule's condition in words. */
  threshold: string;
  /** Firing: the first matching attempt of the window (or the code's first sighting); resolved: when it fired. */
  since: number;
  /** Resolved only: how long it fired, ms. */
  durationMs: number | null;
  /** For per-tool rules, the codes of the matching attempts, most frequent first. */
  codes: { code: string; count: number }[];
  releases: string[];
  environments: string[];
  /** The runs that show it best, with links to their timelines. */
  runs: { id: string; link: string }[];
  /** The issue of the tool and code (the most frequent code, for a per-tool rule) and its state when written; null when none. */
  issue: { id: string; state: string; link: string } | null;
}

/** What the evaluator adds to a state change to make it a message. */
export interface NotificationDetails {
  /** Replaces the change's measurement (a resolution words how long it lasted and where it stands now). */
  value?: string;
  summary: string;
  threshold: string;
  since: number;
  durationMs: number | null;
  context: AlertContext;
  /** The issue named in the message and its state. */
  issue?: { id: string; state: string } | null;
  /** The page that explains it, when the rule's kind and tool do not say (an SLO's page). */
  link?: string;
}

const q = (params: Record<string, string>) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "")).toString();

/** The page that explains an alert, relative to the dashboard (prefixed with the public URL when one is configured). */
export function alertLink(kind: AlertRuleKind, project: string, tool: string, code: string): string {
  const p = project === "default" ? "" : project;
  if (kind === "issue_regressed") return issueLink(project, issueId(project, tool, code));
  if (kind === "slo_burn") return `/slos${p ? `?${q({ project: p })}` : ""}`;
  if (kind === "drift") return `/drift?${q({ project: p, tool, code })}`;
  if (kind === "new_code" && code !== "") return `/codes/${encodeURIComponent(code)}?${q({ project: p, tool })}`.replace(/\?$/, "");
  return `/tools/${encodeURIComponent(tool)}${p ? `?${q({ project: p })}` : ""}`;
}

/** An issue's page (the issues list with it open), relative to the dashboard. */
export const issueLink = (project: string, id: string) => `/issues?${q({ project: project === "default" ? "" : project, issue: id })}`;
/** An SLO on the SLO page, relative to the dashboard. */
export const sloLink = (project: string, sloId: number) => `/slos?${q({ project: project === "default" ? "" : project, slo: String(sloId) })}`;

/** A run's timeline page, relative to the dashboard. */
export const runLink = (project: string, runId: string) => `/runs/${encodeURIComponent(runId)}${project === "default" ? "" : `?${q({ project })}`}`;

export function buildNotification(
  rule: { id: number; name: string; kind: AlertRuleKind; project: string },
  change: { status: AlertStatus; tool: string; code: string; value: string },
  at: number,
  publicUrl: string,
  details: NotificationDetails = { summary: change.value, threshold: "", since: at, durationMs: null, context: EMPTY_CONTEXT },
): AlertNotification {
  const base = publicUrl.replace(/\/$/, "");
  const { context } = details;
  return {
    project: rule.project,
    rule: { id: rule.id, name: rule.name, kind: rule.kind },
    status: change.status,
    tool: change.tool,
    // A per-tool rule names the code most of its matching attempts carried.
    code: change.code || (context.codes[0]?.code ?? ""),
    value: details.value ?? change.value,
    at,
    link: base + (details.link ?? alertLink(rule.kind, rule.project, change.tool, change.code)),
    summary: details.summary,
    threshold: details.threshold,
    since: details.since,
    durationMs: details.durationMs,
    codes: context.codes,
    releases: context.releases,
    environments: context.environments,
    runs: context.runs.map((id) => ({ id, link: base + runLink(rule.project, id) })),
    issue: details.issue ? { ...details.issue, link: base + issueLink(rule.project, details.issue.id) } : null,
  };
}

/**
 * A notification written before messages carried their details (still in the outbox after an
 * upgrade) reads with empty details, so every receiver format can render it.
 */
export function readNotification(body: string): AlertNotification {
  const n = JSON.parse(body) as Partial<AlertNotification> & Pick<AlertNotification, "project" | "rule" | "status" | "tool" | "code" | "value" | "at" | "link">;
  return { summary: n.value, threshold: "", since: n.at, durationMs: null, codes: [], releases: [], environments: [], runs: [], issue: null, ...n };
}

/** One line for chat and subjects: what fired or resolved, where, and the measurement. */
export function notificationText(n: AlertNotification): string {
  const what = n.code ? `${n.tool} / ${n.code}` : n.tool;
  const lasted = n.status === "resolved" && n.durationMs !== null ? ` after ${formatDuration(n.durationMs)}` : "";
  const issue = n.issue ? ` — issue ${n.issue.state}` : "";
  return `${n.status === "firing" ? "FIRING" : "RESOLVED"}: ${n.rule.name} (${what}) — ${n.status === "firing" ? n.value : `resolved${lasted}`}${issue}`;
}

/** The whole message as plain text lines (email bodies, PagerDuty details): the summary, the facts, the runs and the link. */
export function notificationLines(n: AlertNotification): string[] {
  const facts = [
    `Project: ${n.project}`,
    `Tool: ${n.tool}`,
    n.code ? `Code: ${n.code}` : null,
    n.codes.length > 1 ? `Codes: ${n.codes.map((c) => `${c.code} (${c.count})`).join(", ")}` : null,
    n.releases.length > 0 ? `Release: ${n.releases.join(", ")}` : null,
    n.environments.length > 0 ? `Environment: ${n.environments.join(", ")}` : null,
    n.threshold ? `Threshold: ${n.threshold}` : null,
    `${n.status === "firing" ? "Since" : "Fired at"}: ${formatUtc(n.since)}`,
    n.durationMs !== null ? `Lasted: ${formatDuration(n.durationMs)}` : null,
    n.issue ? `Issue: ${n.issue.state}, ${n.issue.link}` : null,
  ].filter((x) => x !== null);
  return [n.summary, "", ...facts, ...(n.runs.length > 0 ? ["", "Runs:", ...n.runs.map((r) => `  ${r.id}: ${r.link}`)] : []), "", `Open in Faultline: ${n.link}`];
}

/** A Slack incoming-webhook body: `text` for notifications and clients without blocks, and blocks with the link. */
export function slackBody(n: AlertNotification): { text: string; blocks: unknown[] } {
  const text = notificationText(n);
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${n.status === "firing" ? ":red_circle: Firing" : ":white_check_mark: Resolved"}: ${n.rule.name}*\n${n.summary}` } },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: [
              `project ${n.project}`,
              `tool ${n.tool}`,
              n.code ? `code ${n.code}` : null,
              n.releases.length > 0 ? `release ${n.releases.join(", ")}` : null,
              n.environments.length > 0 ? `env ${n.environments.join(", ")}` : null,
              n.issue ? `<${n.issue.link}|issue ${n.issue.state}>` : null,
              `${n.status === "firing" ? "since" : "fired at"} ${formatUtc(n.since)}`,
            ]
              .filter((x) => x !== null)
              .join(" · "),
          },
        ],
      },
      ...(n.runs.length > 0 ? [{ type: "section", text: { type: "mrkdwn", text: `Runs: ${n.runs.map((r) => `<${r.link}|${r.id}>`).join(" · ")}` } }] : []),
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in Faultline" }, url: n.link }] },
    ],
  };
}
