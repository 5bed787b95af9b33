import type { CodeContract } from "@/lib/contracts/gate";
import { contractOf } from "@/lib/drift/contract";
import type { Executor } from "../store/types";
import { loadAccumulators, loadToolReleases } from "./load-accumulators";

/** A release's code catalogue (null when the project recorded no tool call in that release). */
export async function getCodeContract(db: Executor, q: { project: string; release: string; now: number }): Promise<CodeContract | null> {
  const toolReleases = (await loadToolReleases(db, q.project)).filter((r) => r.release === q.release);
  if (toolReleases.length === 0) return null;
  const accumulators = (await loadAccumulators(db, q.project)).filter((a) => a.release === q.release);
  return contractOf(q.project, q.release, toolReleases, accumulators, q.now);
}
