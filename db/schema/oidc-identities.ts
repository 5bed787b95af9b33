import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { users } from "./users";

/** A single-sign-on identity (issuer + subject) linked to a user. */
export const oidcIdentities = table(
  "oidc_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: int("created_at").notNull(),
    lastSignInAt: int("last_sign_in_at").notNull(),
  },
  (t) => [
    // Named as PostgreSQL has had it since its first migration (the derived default is `<table>_pk`).
    primaryKey({ name: "oidc_identities_issuer_subject_pk", columns: [t.issuer, t.subject] }),
    index("oidc_identities_user_idx").on(t.userId),
  ],
);

export const oidcIdentitiesPg = pgTableOf(oidcIdentities);
