import { int, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/** The one-time link printed at first start that creates the instance owner's account. */
export const setupTokens = table("setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: int("created_at").notNull(),
  expiresAt: int("expires_at").notNull(),
  usedAt: int("used_at"),
});

export const setupTokensPg = pgTableOf(setupTokens);
