import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { ReleaseKind } from "@/lib/contracts/drift";

/**
 * Every release a tool was seen in, with all its calls (successful ones too): the denominator that
 * tells whether a code's absence from a release means anything.
 */
export const driftToolReleases = table(
  "drift_tool_releases",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    releaseKind: text("release_kind").$type<ReleaseKind>().notNull(),
    /** First attempts (attempt 1 or unknown) — one per call. */
    firstAttempts: int("first_attempts").notNull().default(0),
    spans: int("spans").notNull().default(0),
    errors: int("errors").notNull().default(0),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
    exampleRunIds: text("example_run_ids").notNull().default("[]"),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.tool, t.release] })],
);

export const driftToolReleasesPg = pgTableOf(driftToolReleases);
