import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";
import { users } from "./users";

/** A user's role in one project (lib/auth/roles.ts). */
export const memberships = table(
  "memberships",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    createdAt: int("created_at").notNull(),
  },
  (t) => [
    // Named as PostgreSQL has had it since its first migration (the derived default is `<table>_pk`).
    primaryKey({ name: "memberships_project_id_user_id_pk", columns: [t.projectId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
  ],
);

export const membershipsPg = pgTableOf(memberships);
