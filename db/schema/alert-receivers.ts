import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/** Webhook receivers of a project; the secret signs every delivery (HMAC-SHA256, see docs/alerts.md). */
export const alertReceivers = sqliteTable(
  "alert_receivers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    url: text("url").notNull(),
    format: text("format").$type<AlertReceiverFormat>().notNull(),
    secret: text("secret").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("alert_receivers_project_idx").on(t.projectId)],
);
