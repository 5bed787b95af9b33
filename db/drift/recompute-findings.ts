import { computeFindings, rankFindings } from "@/lib/drift/compare";
import { editConcerns, ruleEditText } from "@/lib/drift/rule-caused";
import { listRuleEdits } from "../classify/rule-edits";
import { modelBehaviourFindings } from "@/lib/drift/model-behaviour";
import type { DriftFinding } from "@/lib/contracts/drift";
import { openDeclinedIssues, type DeclineTrigger } from "../issues/open-declined-issues";
import type { Executor } from "../store/types";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";
import { loadToldReleaseCounts } from "./load-told-counts";
import { driftSql } from "./statements";
import { toldExampleRuns } from "./told-example-runs";

/**
 * Replaces a project's findings with those derived from its current accumulators and told counts
 * (model behaviour). Call inside a transaction that holds the project's drift state
 * (`lockDriftState`), so no fold or other recompute of the project interleaves, after taking the
 * project's told mark (refresh-drift.ts).
 */
export async function recomputeFindings(tx: Executor, projectId: string, now: number): Promise<number> {
  const sql = driftSql(tx.dialect);
  const [toolReleases, accumulators, told, ruleEdits] = [
    await loadToolReleases(tx, projectId), await loadAccumulators(tx, projectId), await loadToldReleaseCounts(tx, projectId), await listRuleEdits(tx, projectId),
  ];
  const behaviour = modelBehaviourFindings(told);
  for (const f of behaviour) {
    // Runs that show the change: recoveries on the better side, failures on the worse one.
    const better = f.direction === "better";
    f.exampleRuns = {
      before: await toldExampleRuns(tx, projectId, { tool: f.tool, code: f.code, release: f.fromRelease, recovered: !better }),
      after: await toldExampleRuns(tx, projectId, { tool: f.tool, code: f.code, release: f.toRelease, recovered: better }),
    };
  }
  const findings = rankFindings([...computeFindings({ toolReleases, accumulators, ruleEdits }), ...behaviour]);
  for (const f of findings) {
    const notes = ruleEdits.filter((e) => editConcerns(e, f.code) || (f.renamedTo !== null && editConcerns(e, f.renamedTo))).map(ruleEditText);
    if (notes.length > 0) f.ruleNotes = notes;
  }
  const before = new Set((await tx.all<{ finding_id: string }>("SELECT finding_id FROM drift_findings WHERE project_id = ?", [projectId])).map((r) => r.finding_id));
  await tx.run(sql.deleteFindings, { project: projectId });
  if (findings.length > 0) {
    const rows = findings.map((f, rank) => [f.id, rank, f.kind, f.severity, f.verdict, f.code, f.renamedTo, f.tool, f.fromRelease, f.toRelease, JSON.stringify(f)]);
    await tx.run(sql.insertFindings, { project: projectId, rows: JSON.stringify(rows), now });
  }
  await tx.run(sql.putFindingsComputedAt, { project: projectId, now });
  // Only a finding that is new opens an issue: one that persists must not reopen it after a user resolved it.
  await openDeclinedIssues(tx, projectId, findings.filter((f) => !before.has(f.id)).flatMap(declineTrigger), now);
  return findings.length;
}

/** The code a finding names in its later release (a removed code has none there). */
function declineTrigger(f: DriftFinding): DeclineTrigger[] {
  const code = f.kind === "renamed" ? f.renamedTo : f.kind === "removed" ? null : f.code;
  if (code === null) return [];
  return [{ tool: f.tool, code, actor: "drift", by: `drift finding "${f.kind}" of ${f.code} in ${f.tool} ${f.fromRelease} → ${f.toRelease}` }];
}
