import { int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

export const projects = table("projects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: int("created_at").notNull(),
  /** Archived projects keep their data and are read-only: ingest answers 403, alerts stop. */
  archivedAt: int("archived_at"),
});

export const projectsPg = pgTableOf(projects);
