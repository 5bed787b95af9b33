import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { ReleaseKind } from "@/lib/contracts/drift";

/** PostgreSQL twin of db/schema/drift-tool-releases.ts. */
export const driftToolReleases = pgTable(
  "drift_tool_releases",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    releaseKind: text("release_kind").$type<ReleaseKind>().notNull(),
    firstAttempts: bigint("first_attempts", { mode: "number" }).notNull().default(0),
    spans: bigint("spans", { mode: "number" }).notNull().default(0),
    errors: bigint("errors", { mode: "number" }).notNull().default(0),
    firstSeen: bigint("first_seen", { mode: "number" }).notNull(),
    lastSeen: bigint("last_seen", { mode: "number" }).notNull(),
    exampleRunIds: text("example_run_ids").notNull().default("[]"),
  },
  (t) => [primaryKey({ name: "drift_tool_releases_pk", columns: [t.projectId, t.tool, t.release] })],
);
