import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { ReleaseKind } from "@/lib/contracts/drift";

/**
 * Scalar accumulators of one code on one tool in one release (release = tool_version, else release,
 * else sdk_version, else ISO week; `release_kind` says which). Categorical counts live in
 * drift_counts; `calls` and `recovered` are maintained from drift_calls.
 */
export const driftSignatures = table(
  "drift_signatures",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    releaseKind: text("release_kind").$type<ReleaseKind>().notNull(),
    spans: int("spans").notNull().default(0),
    errors: int("errors").notNull().default(0),
    calls: int("calls").notNull().default(0),
    recovered: int("recovered").notNull().default(0),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
    /** JSON array of up to three run ids that show this signature. */
    exampleRunIds: text("example_run_ids").notNull().default("[]"),
    /**
     * Spans and final errors of the signature whose code classification set, a project's rule or the
     * built-in pack (not the emitter): a code that only rules give can come and go with a rule edit, a
     * reorder or a pack switch. Rows folded before the pack's codes were counted here count project rules only.
     */
    ruled: int("ruled").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.code, t.tool, t.release] })],
);

export const driftSignaturesPg = pgTableOf(driftSignatures);
