import { index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * Who did what, when and from where. `project_id` is null for instance-level events (sign-ins,
 * setup); `actor_label` keeps a readable name even after the user is deleted.
 */
export const auditLog = table(
  "audit_log",
  {
    id: serial("id"),
    at: int("at").notNull(),
    projectId: text("project_id"),
    actorUserId: text("actor_user_id"),
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    target: text("target"),
    /** JSON object with the action's details (never a secret). */
    detail: text("detail"),
    address: text("address"),
  },
  (t) => [index("audit_log_project_at_idx").on(t.projectId, t.at), index("audit_log_actor_at_idx").on(t.actorUserId, t.at), index("audit_log_at_idx").on(t.at)],
);

export const auditLogPg = pgTableOf(auditLog);
