import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

/** PostgreSQL twin of db/schema/sessions.ts. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Sent back by the browser in `x-faultline-csrf` on every state-changing request. */
    csrfToken: text("csrf_token").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    address: text("address"),
    userAgent: text("user_agent"),
    /** How the session was opened: `password` or `oidc`. */
    method: text("method").notNull().default("password"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);
