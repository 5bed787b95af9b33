import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AlertRuleKind } from "@/lib/contracts/alert-enums";
import { alertReceivers } from "./alert-receivers";
import { projects } from "./projects";

/** Alert rules of a project; `params` holds the kind's thresholds as JSON (lib/contracts/alerts.ts validates them). */
export const alertRules = sqliteTable(
  "alert_rules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    kind: text("kind").$type<AlertRuleKind>().notNull(),
    params: text("params").notNull(),
    /** No receiver: states are still kept and shown in the history, nothing is sent. */
    receiverId: integer("receiver_id").references(() => alertReceivers.id),
    mutedAt: integer("muted_at"),
    snoozedUntil: integer("snoozed_until"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("alert_rules_project_idx").on(t.projectId)],
);
