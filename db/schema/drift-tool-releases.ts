import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { ReleaseKind } from "@/lib/contracts/drift";

/**
 * Every release a tool was seen in, with all its calls (successful ones too): the denominator that
 * tells whether a code's absence from a release means anything.
 */
export const driftToolReleases = sqliteTable(
  "drift_tool_releases",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    releaseKind: text("release_kind").$type<ReleaseKind>().notNull(),
    /** First attempts (attempt 1 or unknown) — one per call. */
    firstAttempts: integer("first_attempts").notNull().default(0),
    spans: integer("spans").notNull().default(0),
    errors: integer("errors").notNull().default(0),
    firstSeen: integer("first_seen").notNull(),
    lastSeen: integer("last_seen").notNull(),
    exampleRunIds: text("example_run_ids").notNull().default("[]"),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tool, t.release] })],
);
