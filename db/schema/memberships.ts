import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "./projects";
import { users } from "./users";

/** A user's role in one project (lib/auth/roles.ts). */
export const memberships = sqliteTable(
  "memberships",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);
