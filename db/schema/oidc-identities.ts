import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/** A single-sign-on identity (issuer + subject) linked to a user. */
export const oidcIdentities = sqliteTable(
  "oidc_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSignInAt: integer("last_sign_in_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("oidc_identities_user_idx").on(t.userId)],
);
