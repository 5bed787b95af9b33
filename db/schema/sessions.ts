import { index, int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { users } from "./users";

/** Server-side sessions. Only the SHA-256 of the cookie's token is stored, so a database leak signs nobody in. */
export const sessions = table(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Sent back by the browser in `x-faultline-csrf` on every state-changing request. */
    csrfToken: text("csrf_token").notNull(),
    createdAt: int("created_at").notNull(),
    lastSeenAt: int("last_seen_at").notNull(),
    expiresAt: int("expires_at").notNull(),
    address: text("address"),
    userAgent: text("user_agent"),
    /** How the session was opened: `password` or `oidc`. */
    method: text("method").notNull().default("password"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const sessionsPg = pgTableOf(sessions);
