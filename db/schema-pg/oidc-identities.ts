import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { users } from "./users";

/** PostgreSQL twin of db/schema/oidc-identities.ts. */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastSignInAt: bigint("last_sign_in_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("oidc_identities_user_idx").on(t.userId)],
);
