import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { alertRules } from "./alert-rules";

/** PostgreSQL twin of db/schema/alert-states.ts. */
export const alertStates = pgTable(
  "alert_states",
  {
    ruleId: bigint("rule_id", { mode: "number" })
      .notNull()
      .references(() => alertRules.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    value: text("value").notNull(),
    firedAt: bigint("fired_at", { mode: "number" }).notNull(),
    resolvedAt: bigint("resolved_at", { mode: "number" }),
  },
  (t) => [primaryKey({ name: "alert_states_pk", columns: [t.ruleId, t.key] })],
);
