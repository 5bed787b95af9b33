import type { AlertNotification } from "./notification";
import { notificationLines, notificationText } from "./notification";

/** PagerDuty's Events API v2 endpoint: a `pagerduty` receiver sends here unless given another URL. */
export const PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue";

/** The four severities PagerDuty accepts. */
export type PagerDutySeverity = "critical" | "error" | "warning" | "info";

/** How urgent a notification is, from its rule kind (and a drift finding's own severity, an SLO burn's level). */
export function pagerDutySeverity(n: AlertNotification): PagerDutySeverity {
  switch (n.rule.kind) {
    case "new_code":
      return "info";
    case "refusal_spike":
      return "warning";
    case "slo_burn":
      // A fast burn pages; a slow burn is a ticket's worth (PagerDuty maps warnings to low urgency).
      return n.value.startsWith("fast burn") ? "critical" : "warning";
    case "drift":
      return n.value.startsWith("critical:") ? "critical" : n.value.startsWith("high:") ? "error" : "warning";
    default:
      return "error";
  }
}

/** PagerDuty truncates nothing for us: a summary over 1024 characters is refused. */
const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The Events API v2 body of a notification: a trigger with its details and links, or a resolve of the same dedup key. */
export function pagerDutyEvent(n: AlertNotification, routingKey: string, dedupKey: string): Record<string, unknown> {
  if (n.status === "resolved") return { routing_key: routingKey, event_action: "resolve", dedup_key: dedupKey };
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: dedupKey,
    payload: {
      summary: clip(notificationText(n), 1024),
      source: `faultline/${n.project}`,
      severity: pagerDutySeverity(n),
      timestamp: new Date(n.since).toISOString(),
      component: n.tool,
      group: n.project,
      class: n.rule.kind,
      custom_details: {
        summary: n.summary,
        threshold: n.threshold,
        code: n.code,
        codes: n.codes,
        releases: n.releases,
        environments: n.environments,
        rule: n.rule.name,
        message: notificationLines(n).join("\n"),
      },
    },
    client: "Faultline",
    client_url: n.link,
    links: [{ href: n.link, text: "Open in Faultline" }, ...n.runs.map((r) => ({ href: r.link, text: `Run ${r.id}` }))],
  };
}
