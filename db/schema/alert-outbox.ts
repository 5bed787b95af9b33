import { index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/**
 * Notifications, written in the transaction that changes an alert state and delivered afterwards, so a
 * restart or a receiver outage loses none. Rule and receiver are copied by value: deleting a rule keeps
 * its history.
 */
export const alertOutbox = table(
  "alert_outbox",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    ruleId: int("rule_id").notNull(),
    ruleName: text("rule_name").notNull(),
    receiverId: int("receiver_id"),
    key: text("key").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    /** The notification as JSON (lib/contracts/alerts.ts); the receiver's format is rendered at delivery. */
    body: text("body").notNull(),
    createdAt: int("created_at").notNull(),
    attempts: int("attempts").notNull().default(0),
    /** Null once delivered or given up. */
    nextAttemptAt: int("next_attempt_at"),
    deliveredAt: int("delivered_at"),
    gaveUpAt: int("gave_up_at"),
  },
  (t) => [index("alert_outbox_project_idx").on(t.projectId, t.createdAt), index("alert_outbox_due_idx").on(t.nextAttemptAt)],
);

export const alertOutboxPg = pgTableOf(alertOutbox);
