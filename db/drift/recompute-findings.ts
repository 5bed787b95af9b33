import { computeFindings } from "@/lib/drift/compare";
import type { Executor } from "../store/types";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";
import { driftSql } from "./statements";

/**
 * Replaces a project's findings with those derived from its current accumulators. Call inside a
 * transaction that holds the project's drift state (`lockDriftState`), so no fold or other
 * recompute of the project interleaves.
 */
export async function recomputeFindings(tx: Executor, projectId: string, now: number): Promise<number> {
  const sql = driftSql(tx.dialect);
  const [toolReleases, accumulators] = [await loadToolReleases(tx, projectId), await loadAccumulators(tx, projectId)];
  const findings = computeFindings({ toolReleases, accumulators });
  await tx.run(sql.deleteFindings, { project: projectId });
  if (findings.length > 0) {
    const rows = findings.map((f, rank) => [f.id, rank, f.kind, f.severity, f.verdict, f.code, f.renamedTo, f.tool, f.fromRelease, f.toRelease, JSON.stringify(f)]);
    await tx.run(sql.insertFindings, { project: projectId, rows: JSON.stringify(rows), now });
  }
  await tx.run(sql.putFindingsComputedAt, { project: projectId, now });
  return findings.length;
}
