import { z } from "zod";

/** What the audit log records. Names are `subject.verb`; the dashboard labels them (lib/audit/). */
export const AUDIT_ACTIONS = [
  "instance.setup",
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "auth.sign_out_everywhere",
  "user.password_changed",
  "user.disabled",
  "user.identity_linked",
  "project.created",
  "project.renamed",
  "project.archived",
  "project.restored",
  "key.created",
  "key.revoked",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "invitation.revoked",
  "rule.created",
  "rule.updated",
  "rule.deleted",
  "receiver.created",
  "receiver.updated",
  "receiver.deleted",
  "alert.muted",
  "alert.unmuted",
  "user.enabled",
  "classification.rule_created",
  "classification.rule_updated",
  "classification.rule_deleted",
  "classification.rules_reordered",
  "classification.builtin_switched",
  "issue.state_changed",
  "issue.assigned",
  "issue.noted",
  "trace_link.set",
  "trace_link.removed",
  "view.saved",
  "view.changed",
  "view.deleted",
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** One audit entry as the API answers it. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  projectId: z.string().nullable(),
  actorUserId: z.string().nullable(),
  actorLabel: z.string(),
  action: auditActionSchema,
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
