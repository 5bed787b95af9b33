import { index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { AlertRuleKind } from "@/lib/contracts/alert-enums";
import { alertReceivers } from "./alert-receivers";
import { projects } from "./projects";

/** Alert rules of a project; `params` holds the kind's thresholds as JSON (lib/contracts/alerts.ts validates them). */
export const alertRules = table(
  "alert_rules",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    kind: text("kind").$type<AlertRuleKind>().notNull(),
    params: text("params").notNull(),
    /** No receiver: states are still kept and shown in the history, nothing is sent. */
    receiverId: int("receiver_id").references(() => alertReceivers.id),
    mutedAt: int("muted_at"),
    snoozedUntil: int("snoozed_until"),
    createdAt: int("created_at").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [index("alert_rules_project_idx").on(t.projectId)],
);

export const alertRulesPg = pgTableOf(alertRules);
