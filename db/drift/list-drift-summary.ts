import { eq } from "drizzle-orm";
import { DRIFT_SEVERITIES, type DriftSeverity, type DriftSummaryEntry, type DriftSummaryResponse } from "@/lib/contracts/drift";
import type { Store } from "../client";
import { driftFindings } from "../schema";

/** Per (code, tool): how many findings and the worst severity — what a badge on another page needs. */
export function listDriftSummary(store: Store, params: { project: string }): Omit<DriftSummaryResponse, "upToDate"> {
  const rows = store.db
    .select({ code: driftFindings.code, renamedTo: driftFindings.renamedTo, tool: driftFindings.tool, kind: driftFindings.kind, severity: driftFindings.severity })
    .from(driftFindings)
    .where(eq(driftFindings.projectId, params.project))
    .all();
  const entries = new Map<string, DriftSummaryEntry>();
  const worse = (a: DriftSeverity, b: DriftSeverity) => (DRIFT_SEVERITIES.indexOf(a) <= DRIFT_SEVERITIES.indexOf(b) ? a : b);
  for (const r of rows) {
    // A rename affects the policies of both names.
    for (const code of r.renamedTo ? [r.code, r.renamedTo] : [r.code]) {
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
