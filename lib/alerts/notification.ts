import type { AlertRuleKind, AlertStatus } from "@/lib/contracts/alert-enums";

/** A notification as the outbox keeps it and the generic JSON receiver gets it. */
export interface AlertNotification {
  project: string;
  rule: { id: number; name: string; kind: AlertRuleKind };
  status: AlertStatus;
  tool: string;
  /** Empty for per-tool rules (failure rate, retry storm, refusal spike, failed closed). */
  code: string;
  value: string;
  at: number;
  /** The dashboard page that explains the alert: the drift findings, the code, or the tool. */
  link: string;
}

const q = (params: Record<string, string>) => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "")).toString();

/** The page that explains an alert, relative to the dashboard (prefixed with the public URL when one is configured). */
export function alertLink(kind: AlertRuleKind, project: string, tool: string, code: string): string {
  const p = project === "default" ? "" : project;
  if (kind === "drift") return `/drift?${q({ project: p, tool, code })}`;
  if (kind === "new_code" && code !== "") return `/codes/${encodeURIComponent(code)}?${q({ project: p, tool })}`.replace(/\?$/, "");
  return `/tools/${encodeURIComponent(tool)}${p ? `?${q({ project: p })}` : ""}`;
}

export function buildNotification(
  rule: { id: number; name: string; kind: AlertRuleKind; project: string },
  change: { status: AlertStatus; tool: string; code: string; value: string },
  at: number,
  publicUrl: string,
): AlertNotification {
  return {
    project: rule.project,
    rule: { id: rule.id, name: rule.name, kind: rule.kind },
    status: change.status,
    tool: change.tool,
    code: change.code,
    value: change.value,
    at,
    link: publicUrl.replace(/\/$/, "") + alertLink(rule.kind, rule.project, change.tool, change.code),
  };
}

/** One line for chat: what fired or resolved, where, and the measurement. */
export function notificationText(n: AlertNotification): string {
  const what = n.code ? `${n.tool} / ${n.code}` : n.tool;
  return `${n.status === "firing" ? "FIRING" : "RESOLVED"}: ${n.rule.name} (${what}) — ${n.value}`;
}

/** A Slack incoming-webhook body: `text` for notifications and clients without blocks, and blocks with the link. */
export function slackBody(n: AlertNotification): { text: string; blocks: unknown[] } {
  const text = notificationText(n);
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${n.status === "firing" ? ":red_circle: Firing" : ":white_check_mark: Resolved"}: ${n.rule.name}*\n${n.value}` } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: `project ${n.project} · tool ${n.tool}${n.code ? ` · code ${n.code}` : ""} · ${new Date(n.at).toISOString()}` }],
      },
      { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in Faultline" }, url: n.link }] },
    ],
  };
}
