import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const projects = sqliteTable("projects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
  /** Archived projects keep their data and are read-only: ingest answers 403, alerts stop. */
  archivedAt: integer("archived_at"),
});
