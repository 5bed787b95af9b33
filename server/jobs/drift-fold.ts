import type { Executor } from "@/db/client";
import { listProjectsBehindOnDrift } from "@/db/drift/get-drift-freshness";
import { config } from "../config";
import { jobRunner } from "./job-runner";
import { processState } from "../process-state";

interface Pending {
  timer: NodeJS.Timeout | null;
  since: number;
  folding: boolean;
  /** Asked again while folding: rows may have arrived after the fold's last look. */
  again: boolean;
}
const pending = processState("drift-folds", () => new Map<string, Pending>());

/**
 * Folds newly ingested rows into the drift accumulators on the job worker, then recomputes the
 * findings. Debounced per project after ingest: it starts once ingest has paused for
 * FAULTLINE_DRIFT_REFRESH_MS, or at the latest FAULTLINE_DRIFT_MAX_WAIT_MS after the first unfolded
 * batch, so a sustained stream is not slowed batch by batch. Reads never fold: they answer what is
 * folded and say whether it is up to date. Each node schedules folds for the projects it ingested;
 * on PostgreSQL one node at a time folds a project, and a node whose fold was skipped asks again
 * later, so no request is lost.
 */
export function scheduleDriftFold(projectId: string, delayMs?: number): void {
  const now = Date.now();
  const current = pending.get(projectId);
  if (current?.folding) {
    current.again = true;
    return;
  }
  if (current?.timer) clearTimeout(current.timer);
  const since = current?.since ?? now;
  const c = config();
  const wait = delayMs ?? Math.min(c.driftQuietMs, Math.max(0, since + c.driftMaxWaitMs - now));
  const entry: Pending = { since, folding: false, again: false, timer: null };
  entry.timer = setTimeout(() => fold(projectId, entry), wait);
  entry.timer.unref();
  pending.set(projectId, entry);
}

/**
 * A drift read of a project whose backlog nobody is folding (rows written by another process, or a
 * restart before the fold ran) starts the fold now; the read itself does not wait for it.
 */
export function ensureDriftFold(projectId: string, upToDate: boolean): void {
  if (!upToDate && !pending.has(projectId)) scheduleDriftFold(projectId, 0);
}

/**
 * At start-up, catches up every project left behind (a crash mid-fold, a copied database). With
 * several nodes each one asks; the fold's lock lets one of them run it (the others retry, see below).
 * Never rejects, so the caller may leave it running.
 */
export async function startDriftJobs(db: Executor): Promise<void> {
  try {
    for (const projectId of await listProjectsBehindOnDrift(db)) scheduleDriftFold(projectId, 0);
  } catch (error) {
    // Not fatal: the next ingest or drift read of a project that is behind starts its fold.
    console.error("[faultline] the start-up drift catch-up could not list projects", error instanceof Error ? error.message : error);
  }
}

/**
 * The wait before asking again after a skipped fold: another node held the project's fold (it may
 * have passed our rows already, or not) or our fold lost its lock. Asking again is cheap — a failed
 * try-lock, or a fold that finds nothing new — and is what guarantees rows this node ingested are
 * folded even if the other node's fold looked before they committed.
 */
const retryAfterSkipMs = () => Math.max(1000, config().driftQuietMs);

function fold(projectId: string, entry: Pending): void {
  entry.folding = true;
  entry.timer = null;
  let skipped = false;
  jobRunner()
    .ask({ job: "drift-fold", projectId })
    .then((outcome) => {
      skipped = outcome.skipped !== undefined;
    })
    .catch((error: unknown) => console.error("[faultline] background drift fold failed; the next ingest or drift read retries", error))
    .finally(() => {
      pending.delete(projectId);
      if (skipped) scheduleDriftFold(projectId, retryAfterSkipMs());
      else if (entry.again) scheduleDriftFold(projectId, 0);
    });
}
