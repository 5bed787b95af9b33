import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/** PostgreSQL twin of db/schema/alert-receivers.ts. */
export const alertReceivers = pgTable(
  "alert_receivers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    url: text("url").notNull(),
    format: text("format").$type<AlertReceiverFormat>().notNull(),
    secret: text("secret").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("alert_receivers_project_idx").on(t.projectId)],
);
