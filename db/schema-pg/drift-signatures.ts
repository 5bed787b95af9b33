import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { ReleaseKind } from "@/lib/contracts/drift";

/** PostgreSQL twin of db/schema/drift-signatures.ts. */
export const driftSignatures = pgTable(
  "drift_signatures",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    releaseKind: text("release_kind").$type<ReleaseKind>().notNull(),
    spans: bigint("spans", { mode: "number" }).notNull().default(0),
    errors: bigint("errors", { mode: "number" }).notNull().default(0),
    calls: bigint("calls", { mode: "number" }).notNull().default(0),
    recovered: bigint("recovered", { mode: "number" }).notNull().default(0),
    firstSeen: bigint("first_seen", { mode: "number" }).notNull(),
    lastSeen: bigint("last_seen", { mode: "number" }).notNull(),
    exampleRunIds: text("example_run_ids").notNull().default("[]"),
  },
  (t) => [primaryKey({ name: "drift_signatures_pk", columns: [t.projectId, t.code, t.tool, t.release] })],
);
