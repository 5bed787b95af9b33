import { bigint, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/users.ts. */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** `scrypt$N$r$p$salt$hash` (salt and parameters per user), or null for single-sign-on-only accounts. */
    passwordHash: text("password_hash"),
    /** An instance owner creates projects and is owner of every project. */
    instanceOwner: bigint("instance_owner", { mode: "number" }).notNull().default(0),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    disabledAt: bigint("disabled_at", { mode: "number" }),
    /** Failed password sign-ins since the last success: the per-account throttle survives restarts and spans nodes. */
    failedSignIns: bigint("failed_sign_ins", { mode: "number" }).notNull().default(0),
    signInBlockedUntil: bigint("sign_in_blocked_until", { mode: "number" }),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);
