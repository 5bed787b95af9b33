import type { GateResponse } from "@/lib/contracts/gate";
import { evaluateGate, type GateAgainst } from "@/lib/drift/gate";
import { listRuleEdits } from "../classify/rule-edits";
import type { Executor } from "../store/types";
import { listReleaseFindings } from "./list-drift-findings";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";
import { loadToldReleaseCounts } from "./load-told-counts";

/**
 * The release gate's answer from the project's folded drift: against the predecessor it reads the
 * stored findings the Drift page shows; against a named release it judges the told counts too.
 */
export async function getGate(db: Executor, q: { project: string; release: string; against: GateAgainst; upToDate: boolean }): Promise<GateResponse> {
  const toolReleases = await loadToolReleases(db, q.project);
  const accumulators = await loadAccumulators(db, q.project);
  const releaseFindings = q.against.kind === "predecessor" ? await listReleaseFindings(db, q.project, q.release) : [];
  const told = q.against.kind === "release" ? await loadToldReleaseCounts(db, q.project) : [];
  const ruleEdits = q.against.kind === "release" ? await listRuleEdits(db, q.project) : [];
  return evaluateGate({ ...q, toolReleases, accumulators, releaseFindings, told, ruleEdits });
}
