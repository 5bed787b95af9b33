import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/drift-counts.ts. */
export const driftCounts = pgTable(
  "drift_counts",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    basis: text("basis").notNull(),
    dim: text("dim").notNull(),
    value: text("value").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ name: "drift_counts_pk", columns: [t.projectId, t.code, t.tool, t.release, t.basis, t.dim, t.value] })],
);
