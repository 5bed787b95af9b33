import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/setup-tokens.ts. */
export const setupTokens = pgTable("setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  usedAt: bigint("used_at", { mode: "number" }),
});
