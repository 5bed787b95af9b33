import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/projects.ts. */
export const projects = pgTable("projects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  archivedAt: bigint("archived_at", { mode: "number" }),
});
