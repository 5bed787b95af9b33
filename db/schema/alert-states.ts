import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { alertRules } from "./alert-rules";

/**
 * One row per rule and key (tool, code): a notification is written only when the status changes,
 * so a condition that holds across evaluations is announced once.
 */
export const alertStates = table(
  "alert_states",
  {
    ruleId: int("rule_id")
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    /** The measured value that last changed the status (rate, count, ratio), for the notification text. */
    value: text("value").notNull(),
    firedAt: int("fired_at").notNull(),
    resolvedAt: int("resolved_at"),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.key] })],
);

export const alertStatesPg = pgTableOf(alertStates);
