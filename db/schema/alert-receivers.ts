import { index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { projects } from "./projects";

/** Webhook receivers of a project; the secret signs every delivery (HMAC-SHA256, see docs/alerts.md). */
export const alertReceivers = table(
  "alert_receivers",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    url: text("url").notNull(),
    format: text("format").$type<AlertReceiverFormat>().notNull(),
    secret: text("secret").notNull(),
    createdAt: int("created_at").notNull(),
  },
  (t) => [index("alert_receivers_project_idx").on(t.projectId)],
);

export const alertReceiversPg = pgTableOf(alertReceivers);
