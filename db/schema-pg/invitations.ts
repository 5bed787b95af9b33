import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./projects";
import { users } from "./users";

/** PostgreSQL twin of db/schema/invitations.ts. */
export const invitations = pgTable(
  "invitations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tokenHash: text("token_hash").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    /** Who it is meant for, as the admin typed it (informational: the link is the credential). */
    email: text("email"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    acceptedAt: bigint("accepted_at", { mode: "number" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (t) => [uniqueIndex("invitations_token_uq").on(t.tokenHash), index("invitations_project_idx").on(t.projectId)],
);
