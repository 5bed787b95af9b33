import type { GateResponse } from "@/lib/contracts/gate";
import { evaluateGate, type GateAgainst } from "@/lib/drift/gate";
import type { Executor } from "../store/types";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";

/** The release gate's answer from the project's folded drift accumulators. */
export async function getGate(db: Executor, q: { project: string; release: string; against: GateAgainst; upToDate: boolean }): Promise<GateResponse> {
  const [toolReleases, accumulators] = [await loadToolReleases(db, q.project), await loadAccumulators(db, q.project)];
  return evaluateGate({ ...q, toolReleases, accumulators });
}
