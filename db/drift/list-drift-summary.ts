import { DRIFT_SEVERITIES, type DriftKind, type DriftSeverity, type DriftSummaryEntry, type DriftSummaryResponse } from "@/lib/contracts/drift";
import type { Executor } from "../store/types";

/** Per (code, tool): how many findings and the worst severity — what a badge on another page needs. */
export async function listDriftSummary(db: Executor, params: { project: string }): Promise<Omit<DriftSummaryResponse, "upToDate">> {
  const rows = await db.all<{ code: string; renamed_to: string | null; tool: string; kind: DriftKind; severity: DriftSeverity }>(
    "SELECT code, renamed_to, tool, kind, severity FROM drift_findings WHERE project_id = @project ORDER BY rank, finding_id",
    { project: params.project },
  );
  const entries = new Map<string, DriftSummaryEntry>();
  const worse = (a: DriftSeverity, b: DriftSeverity) => (DRIFT_SEVERITIES.indexOf(a) <= DRIFT_SEVERITIES.indexOf(b) ? a : b);
  for (const r of rows) {
    // A rename affects the policies of both names.
    for (const code of r.renamed_to ? [r.code, r.renamed_to] : [r.code]) {
      const key = `${code}\u0000${r.tool}`;
      const e: DriftSummaryEntry = entries.get(key) ?? { code, tool: r.tool, findings: 0, severity: "info", kinds: [] };
      e.findings++;
      e.severity = worse(e.severity, r.severity);
      if (!e.kinds.includes(r.kind)) e.kinds.push(r.kind);
      entries.set(key, e);
    }
  }
  return { entries: [...entries.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.tool < b.tool ? -1 : 1)) };
}
