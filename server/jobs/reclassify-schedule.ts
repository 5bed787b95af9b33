import { processState } from "../process-state";
import { scheduleDriftFold } from "./drift-fold";
import { jobRunner } from "./job-runner";

interface Pending {
  running: boolean;
  again: boolean;
}
const pending = processState("reclassify", () => new Map<string, Pending>());
const RETRY_AFTER_SKIP_MS = 1000;

/**
 * Re-applies a project's rules to its stored failures on the job worker (server/jobs/reclassify-job.ts).
 * Asked after every rule change and by progress reads that find stored calls behind the rules (a
 * restart, another node's change, a batch classified just before an edit), so no change is left
 * unapplied. A run asked for while one runs starts again when it ends; one skipped because another
 * node holds the project's job is asked again shortly.
 */
export function scheduleReclassify(projectId: string): void {
  const current = pending.get(projectId);
  if (current) {
    current.again = true;
    return;
  }
  const entry: Pending = { running: true, again: false };
  pending.set(projectId, entry);
  let skipped = false;
  jobRunner()
    .ask({ job: "reclassify", projectId })
    .then((outcome) => {
      skipped = outcome.skipped !== undefined;
      // A finished pass may have marked the drift findings stale: recompute them now rather than at the next ingest or drift read.
      if (!skipped) scheduleDriftFold(projectId, 0);
    })
    .catch((error: unknown) => console.error("[faultline] re-classification failed; the next rule change or progress read retries", error))
    .finally(() => {
      pending.delete(projectId);
      if (entry.again) scheduleReclassify(projectId);
      else if (skipped) setTimeout(() => scheduleReclassify(projectId), RETRY_AFTER_SKIP_MS).unref();
    });
}

/** Whether a re-classification of the project is running or asked for on this node. */
export const reclassifyPending = (projectId: string): boolean => pending.has(projectId);
