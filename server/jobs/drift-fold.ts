import type { Store } from "@/db/client";
import { listProjectsBehindOnDrift } from "@/db/drift/get-drift-freshness";
import { config } from "../config";
import { jobRunner } from "./job-runner";

interface Pending {
  timer: NodeJS.Timeout | null;
  since: number;
  folding: boolean;
  /** Asked again while folding: rows may have arrived after the fold's last look. */
  again: boolean;
}
const state = globalThis as unknown as { __faultlineDrift?: Map<string, Pending> };
const pending = (state.__faultlineDrift ??= new Map());

/**
 * Folds newly ingested rows into the drift accumulators on the job worker, then recomputes the
 * findings. Debounced per project after ingest: it starts once ingest has paused for
 * FAULTLINE_DRIFT_REFRESH_MS, or at the latest FAULTLINE_DRIFT_MAX_WAIT_MS after the first unfolded
 * batch, so a sustained stream is not slowed batch by batch. Reads never fold: they answer what is
 * folded and say whether it is up to date.
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

/** At start-up, catches up every project left behind (a crash mid-fold, a copied database). */
export function startDriftJobs(store: Store): void {
  for (const projectId of listProjectsBehindOnDrift(store)) scheduleDriftFold(projectId, 0);
}

function fold(projectId: string, entry: Pending): void {
  entry.folding = true;
  entry.timer = null;
  jobRunner()
    .run({ job: "drift-fold", projectId })
    .catch((error: unknown) => console.error("[faultline] background drift fold failed; the next ingest or drift read retries", error))
    .finally(() => {
      pending.delete(projectId);
      if (entry.again) scheduleDriftFold(projectId, 0);
    });
}
