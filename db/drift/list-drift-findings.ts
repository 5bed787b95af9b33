import { and, asc, eq, or, type SQL } from "drizzle-orm";
import type { DriftFinding, DriftFindingsResponse, DriftKind, DriftSeverity } from "@/lib/contracts/drift";
import type { Store } from "../client";
import { driftFindings, driftState } from "../schema";

/** A project's drift findings, most severe first, filtered by kind, severity, tool and code. */
export function listDriftFindings(
  store: Store,
  q: { project: string; kind?: DriftKind; severity?: DriftSeverity; tool?: string; code?: string },
): Omit<DriftFindingsResponse, "upToDate"> {
  const where: SQL[] = [eq(driftFindings.projectId, q.project)];
  if (q.kind) where.push(eq(driftFindings.kind, q.kind));
  if (q.severity) where.push(eq(driftFindings.severity, q.severity));
  if (q.tool) where.push(eq(driftFindings.tool, q.tool));
  // A rename concerns both names: filtering by either finds it.
  if (q.code) where.push(or(eq(driftFindings.code, q.code), eq(driftFindings.renamedTo, q.code))!);
  const rows = store.db.select({ body: driftFindings.body }).from(driftFindings).where(and(...where)).orderBy(asc(driftFindings.rank)).all();
  const all = store.db
    .select({ kind: driftFindings.kind, severity: driftFindings.severity })
    .from(driftFindings)
    .where(eq(driftFindings.projectId, q.project))
    .all();
  const byKind: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  for (const r of all) {
    byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
    bySeverity[r.severity] = (bySeverity[r.severity] ?? 0) + 1;
  }
  const state = store.db.select({ at: driftState.findingsComputedAt }).from(driftState).where(eq(driftState.projectId, q.project)).get();
  return {
    findings: rows.map((r) => JSON.parse(r.body) as DriftFinding),
    totals: { all: all.length, byKind, bySeverity },
    computedAt: state?.at ?? null,
  };
}
