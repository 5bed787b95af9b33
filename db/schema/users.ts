import { int, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";

/** People who sign in to the dashboard. The email is stored lowercased; it is the sign-in name. */
export const users = table(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** `scrypt$N$r$p$salt$hash` (salt and parameters per user), or null for single-sign-on-only accounts. */
    passwordHash: text("password_hash"),
    /** An instance owner creates projects and is owner of every project. */
    instanceOwner: int("instance_owner").notNull().default(0),
    createdAt: int("created_at").notNull(),
    disabledAt: int("disabled_at"),
    /** Failed password sign-ins since the last success: the per-account throttle survives restarts and spans nodes. */
    failedSignIns: int("failed_sign_ins").notNull().default(0),
    signInBlockedUntil: int("sign_in_blocked_until"),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

export const usersPg = pgTableOf(users);
