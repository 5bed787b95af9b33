import type { DriftFinding, DriftFindingsResponse, DriftKind, DriftSeverity } from "@/lib/contracts/drift";
import type { Executor } from "../store/types";

/** A project's drift findings, most severe first, filtered by kind, severity, tool and code. */
export async function listDriftFindings(
  db: Executor,
  q: { project: string; kind?: DriftKind; severity?: DriftSeverity; tool?: string; code?: string },
): Promise<Omit<DriftFindingsResponse, "upToDate">> {
  const where = ["project_id = @project"];
  const params: Record<string, unknown> = { project: q.project };
  for (const key of ["kind", "severity", "tool"] as const) {
    if (q[key] === undefined) continue;
    where.push(`${key} = @${key}`);
    params[key] = q[key];
  }
  if (q.code !== undefined) {
    // A rename concerns both names: filtering by either finds it.
    where.push("(code = @code OR renamed_to = @code)");
    params.code = q.code;
  }
  const rows = await db.all<{ body: string }>(`SELECT body FROM drift_findings WHERE ${where.join(" AND ")} ORDER BY rank, finding_id`, params);
  const all = await db.all<{ kind: string; severity: string }>("SELECT kind, severity FROM drift_findings WHERE project_id = @project", { project: q.project });
  const byKind: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  for (const r of all) {
    byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
    bySeverity[r.severity] = (bySeverity[r.severity] ?? 0) + 1;
  }
  const state = await db.get<{ at: number | null }>("SELECT findings_computed_at AS at FROM drift_state WHERE project_id = @project", { project: q.project });
  return {
    findings: rows.map((r) => JSON.parse(r.body) as DriftFinding),
    totals: { all: all.length, byKind, bySeverity },
    computedAt: state?.at ?? null,
  };
}
