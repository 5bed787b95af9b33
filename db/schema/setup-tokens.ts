import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The one-time link printed at first start that creates the instance owner's account. */
export const setupTokens = sqliteTable("setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});
