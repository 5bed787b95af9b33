import { bigint, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { DriftKind, DriftSeverity } from "@/lib/contracts/drift";

/** PostgreSQL twin of db/schema/drift-findings.ts. */
export const driftFindings = pgTable(
  "drift_findings",
  {
    projectId: text("project_id").notNull(),
    findingId: text("finding_id").notNull(),
    rank: bigint("rank", { mode: "number" }).notNull(),
    kind: text("kind").$type<DriftKind>().notNull(),
    severity: text("severity").$type<DriftSeverity>().notNull(),
    verdict: text("verdict").notNull(),
    code: text("code").notNull(),
    renamedTo: text("renamed_to"),
    tool: text("tool").notNull(),
    fromRelease: text("from_release").notNull(),
    toRelease: text("to_release").notNull(),
    body: text("body").notNull(),
    computedAt: bigint("computed_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ name: "drift_findings_pk", columns: [t.projectId, t.findingId] }),
    index("drift_findings_rank_idx").on(t.projectId, t.rank),
  ],
);
