import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import type { AlertRuleKind } from "@/lib/contracts/alert-enums";
import { alertReceivers } from "./alert-receivers";
import { projects } from "./projects";

/** PostgreSQL twin of db/schema/alert-rules.ts. */
export const alertRules = pgTable(
  "alert_rules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    kind: text("kind").$type<AlertRuleKind>().notNull(),
    params: text("params").notNull(),
    receiverId: bigint("receiver_id", { mode: "number" }).references(() => alertReceivers.id),
    mutedAt: bigint("muted_at", { mode: "number" }),
    snoozedUntil: bigint("snoozed_until", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [index("alert_rules_project_idx").on(t.projectId)],
);
