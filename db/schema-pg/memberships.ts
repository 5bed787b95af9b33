import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { projects } from "./projects";
import { users } from "./users";

/** PostgreSQL twin of db/schema/memberships.ts. */
export const memberships = pgTable(
  "memberships",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);
