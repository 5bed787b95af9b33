import { computeFindings } from "@/lib/drift/compare";
import type { Store } from "../client";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";
import { driftStatements } from "./statements";

/** Replaces a project's findings with those derived from its current accumulators. Call inside a transaction. */
export function recomputeFindings(store: Store, projectId: string, now: number): number {
  const st = driftStatements(store.sqlite);
  const findings = computeFindings({ toolReleases: loadToolReleases(store, projectId), accumulators: loadAccumulators(store, projectId) });
  st.deleteFindings.run(projectId);
  findings.forEach((f, rank) => {
    st.insertFinding.run(projectId, f.id, rank, f.kind, f.severity, f.verdict, f.code, f.renamedTo, f.tool, f.fromRelease, f.toRelease, JSON.stringify(f), now);
  });
  st.putFindingsComputedAt.run(projectId, now);
  return findings.length;
}
