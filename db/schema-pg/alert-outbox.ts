import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/** PostgreSQL twin of db/schema/alert-outbox.ts. */
export const alertOutbox = pgTable(
  "alert_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    ruleId: bigint("rule_id", { mode: "number" }).notNull(),
    ruleName: text("rule_name").notNull(),
    receiverId: bigint("receiver_id", { mode: "number" }),
    key: text("key").notNull(),
    status: text("status").$type<AlertStatus>().notNull(),
    body: text("body").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
    deliveredAt: bigint("delivered_at", { mode: "number" }),
    gaveUpAt: bigint("gave_up_at", { mode: "number" }),
  },
  (t) => [index("alert_outbox_project_idx").on(t.projectId, t.createdAt), index("alert_outbox_due_idx").on(t.nextAttemptAt)],
);
