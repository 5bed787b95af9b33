import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { projects } from "./projects";

/** PostgreSQL twin of db/schema/api-keys.ts. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
    /** `ingest` writes telemetry; `read` (a CI gate key) reads the gate and the code contract, never ingests. */
    scope: text("scope", { enum: ["ingest", "read"] }).notNull().default("ingest"),
  },
  (t) => [uniqueIndex("api_keys_prefix_uq").on(t.prefix), index("api_keys_project_idx").on(t.projectId)],
);
