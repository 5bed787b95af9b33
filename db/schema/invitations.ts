import { index, int, serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";
import { users } from "./users";

/** One-time links an admin copies to invite someone into a project with a role (no email server needed). */
export const invitations = table(
  "invitations",
  {
    id: serial("id"),
    tokenHash: text("token_hash").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    /** Who it is meant for, as the admin typed it (informational: the link is the credential). */
    email: text("email"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: int("created_at").notNull(),
    expiresAt: int("expires_at").notNull(),
    acceptedAt: int("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: int("revoked_at"),
  },
  (t) => [uniqueIndex("invitations_token_uq").on(t.tokenHash), index("invitations_project_idx").on(t.projectId)],
);

export const invitationsPg = pgTableOf(invitations);
