import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/audit-log.ts. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: bigint("at", { mode: "number" }).notNull(),
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
