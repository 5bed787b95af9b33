import type { AuditAction } from "@/lib/contracts/audit";

/** What each audit action is called on the audit page. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "instance.setup": "Set up this Faultline",
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_out": "Signed out",
  "auth.sign_out_everywhere": "Signed out everywhere",
  "user.password_changed": "Changed password",
  "user.disabled": "Disabled a user",
  "user.identity_linked": "Linked a single sign-on identity",
  "user.enabled": "Enabled a user",
  "issue.state_changed": "Changed an issue's state",
  "issue.assigned": "Assigned an issue",
  "issue.noted": "Added a note to an issue",
  "trace_link.set": "Set the link to the tracing tool",
  "trace_link.removed": "Removed the link to the tracing tool",
  "view.saved": "Saved a view",
  "view.changed": "Changed a saved view",
  "view.deleted": "Deleted a saved view",
  "columns.chosen": "Chose a table's columns",
  "experiment.created": "Created a wording experiment",
  "experiment.started": "Started a wording experiment",
  "experiment.stopped": "Stopped a wording experiment",
  "experiment.promoted": "Promoted a winning wording",
  "project.created": "Created the project",
  "project.renamed": "Renamed the project",
  "project.archived": "Archived the project",
  "project.restored": "Restored the project",
  "key.created": "Created a key",
  "key.revoked": "Revoked a key",
  "member.invited": "Invited a member",
  "member.joined": "Joined the project",
  "member.role_changed": "Changed a member's role",
  "member.removed": "Removed a member",
  "invitation.revoked": "Revoked an invitation",
  "rule.created": "Created an alert rule",
  "rule.updated": "Changed an alert rule",
  "rule.deleted": "Deleted an alert rule",
  "classification.rule_created": "Created a classification rule",
  "classification.rule_updated": "Changed a classification rule",
  "classification.rule_deleted": "Deleted a classification rule",
  "classification.rules_reordered": "Reordered the classification rules",
  "classification.builtin_switched": "Switched the built-in classification rules",
  "receiver.created": "Added an alert receiver",
  "receiver.updated": "Changed an alert receiver",
  "receiver.deleted": "Deleted an alert receiver",
  "alert.muted": "Muted an alert rule",
  "alert.unmuted": "Unmuted an alert rule",
  "slo.created": "Created an SLO",
  "slo.updated": "Changed an SLO",
  "slo.deleted": "Deleted an SLO",
};

/** A readable summary of an entry's details (a rename's old and new name, a key's name and scope), or "". */
export function describeAuditDetail(action: AuditAction, detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  const text = (key: string) => (typeof detail[key] === "string" ? (detail[key] as string) : undefined);
  if (action === "project.renamed" && text("from") !== undefined && text("to") !== undefined) return `“${text("from")}” → “${text("to")}”`;
  if ((action === "key.created" || action === "key.revoked") && text("name") !== undefined) return `${text("name")} (${text("scope") ?? "ingest"})`;
  if (action === "project.created" && text("name") !== undefined) return `“${text("name")}”`;
  return "";
}
