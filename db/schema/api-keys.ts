import { index, int, serial, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";
import { projects } from "./projects";

/** Project keys (ingest, or read-only for the CI gate). Only a visible prefix and a SHA-256 hash are kept; the key itself is shown once. */
export const apiKeys = table(
  "api_keys",
  {
    id: serial("id"),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    createdAt: int("created_at").notNull(),
    lastUsedAt: int("last_used_at"),
    revokedAt: int("revoked_at"),
    /** `ingest` writes telemetry; `read` (a CI gate key) reads the gate and the code contract, never ingests. */
    scope: text("scope", { enum: ["ingest", "read"] }).notNull().default("ingest"),
  },
  (t) => [uniqueIndex("api_keys_prefix_uq").on(t.prefix), index("api_keys_project_idx").on(t.projectId)],
);

export const apiKeysPg = pgTableOf(apiKeys);
