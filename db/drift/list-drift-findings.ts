import { driftFindingSchema, type DriftFinding, type DriftFindingsResponse, type DriftKind, type DriftSeverity } from "@/lib/contracts/drift";
import type { Executor } from "../store/types";

/**
 * A project's drift findings, most severe first, filtered by kind, severity, tool and code: the page
 * `offset`/`limit` asks for, or all of them when neither is given (the drift tests read them whole).
 */
export async function listDriftFindings(
  db: Executor,
  q: { project: string; kind?: DriftKind; severity?: DriftSeverity; tool?: string; code?: string; offset?: number; limit?: number },
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
  const paged = q.limit !== undefined;
  const rows = await db.all<{ body: string }>(
    `SELECT body FROM drift_findings WHERE ${where.join(" AND ")} ORDER BY rank, finding_id${paged ? " LIMIT @limit OFFSET @offset" : ""}`,
    paged ? { ...params, limit: q.limit, offset: q.offset ?? 0 } : params,
  );
  const matched = paged ? (await db.get<{ n: number }>(`SELECT count(*) AS n FROM drift_findings WHERE ${where.join(" AND ")}`, params))!.n : rows.length;
  const counts = await db.all<{ kind: string; severity: string; n: number }>(
    "SELECT kind, severity, count(*) AS n FROM drift_findings WHERE project_id = @project GROUP BY kind, severity",
    { project: q.project },
  );
  const byKind: Record<string, number> = {};
  const bySeverity: Record<string, number> = {};
  let all = 0;
  for (const r of counts) {
    const n = Number(r.n);
    byKind[r.kind] = (byKind[r.kind] ?? 0) + n;
    bySeverity[r.severity] = (bySeverity[r.severity] ?? 0) + n;
    all += n;
  }
  const state = await db.get<{ at: number | null }>("SELECT findings_computed_at AS at FROM drift_state WHERE project_id = @project", { project: q.project });
  return {
    findings: rows.map((r) => JSON.parse(r.body) as DriftFinding),
    page: { total: Number(matched), offset: q.offset ?? 0, limit: q.limit ?? rows.length },
    totals: { all, byKind, bySeverity },
    computedAt: state?.at ?? null,
  };
}

/** A project's stored findings into one release (the gate's source against each tool's predecessor), most severe first. */
export async function listReleaseFindings(db: Executor, project: string, release: string): Promise<DriftFinding[]> {
  const rows = await db.all<{ body: string }>("SELECT body FROM drift_findings WHERE project_id = @project AND to_release = @release ORDER BY rank, finding_id", { project, release });
  return rows.map((r) => driftFindingSchema.parse(JSON.parse(r.body)));
}
