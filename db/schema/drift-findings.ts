import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { DriftKind, DriftSeverity } from "@/lib/contracts/drift";

/**
 * Findings derived from the accumulators, replaced as a whole whenever a refresh folded in new rows;
 * reads filter this small table instead of recomputing anything.
 */
export const driftFindings = table(
  "drift_findings",
  {
    projectId: text("project_id").notNull(),
    findingId: text("finding_id").notNull(),
    /** Position in severity order (0 = first). */
    rank: int("rank").notNull(),
    kind: text("kind").$type<DriftKind>().notNull(),
    severity: text("severity").$type<DriftSeverity>().notNull(),
    verdict: text("verdict").notNull(),
    code: text("code").notNull(),
    renamedTo: text("renamed_to"),
    tool: text("tool").notNull(),
    fromRelease: text("from_release").notNull(),
    toRelease: text("to_release").notNull(),
    /** The whole finding as served by the API (JSON). */
    body: text("body").notNull(),
    computedAt: int("computed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.findingId] }), index("drift_findings_rank_idx").on(t.projectId, t.rank)],
);

export const driftFindingsPg = pgTableOf(driftFindings);
