import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/**
 * Notifications, written in the transaction that changes an alert state and delivered afterwards, so a
 * restart or a receiver outage loses none. Rule and receiver are copied by value: deleting a rule keeps
 * its history.
 */
export const alertOutbox = sqliteTable(
  "alert_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    ruleId: integer("rule_id").notNull(),
    ruleName: text("rule_name").notNull(),
    receiverId: integer("receiver_id"),
    key: text("key").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    /** The notification as JSON (lib/contracts/alerts.ts); the receiver's format is rendered at delivery. */
    body: text("body").notNull(),
    createdAt: integer("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** Null once delivered or given up. */
    nextAttemptAt: integer("next_attempt_at"),
    deliveredAt: integer("delivered_at"),
    gaveUpAt: integer("gave_up_at"),
  },
  (t) => [index("alert_outbox_project_idx").on(t.projectId, t.createdAt), index("alert_outbox_due_idx").on(t.nextAttemptAt)],
);
