import type { Store } from "@/db/client";
import { listProjectsBehindOnDrift } from "@/db/drift/get-drift-freshness";
import { foldDriftChunk, refreshDrift } from "@/db/drift/refresh-drift";
import { config } from "../config";

// ~7 µs a row: one slice holds the event loop and the writer for a few milliseconds, so requests
// (health included) interleave with a catch-up of any size.
const SLICE_ROWS = 500;

interface Pending {
  timer: NodeJS.Timeout | null;
  since: number;
  folding: boolean;
}
const state = globalThis as unknown as { __faultlineDrift?: Map<string, Pending> };
const pending = (state.__faultlineDrift ??= new Map());

/**
 * Folds newly ingested rows into the drift accumulators off the request path, then recomputes the
 * findings. Debounced per project after ingest: it starts once ingest has paused for
 * FAULTLINE_DRIFT_REFRESH_MS, or at the latest FAULTLINE_DRIFT_MAX_WAIT_MS after the first unfolded
 * batch, so a sustained stream is not slowed batch by batch. The fold runs one bounded slice per
 * event-loop turn; reads never fold, they answer what is folded and say how fresh it is.
 */
export function scheduleDriftFold(store: Store, projectId: string, delayMs?: number): void {
  const now = Date.now();
  const current = pending.get(projectId);
  if (current?.folding) return;
  if (current?.timer) clearTimeout(current.timer);
  const since = current?.since ?? now;
  const c = config();
  const wait = delayMs ?? Math.min(c.driftQuietMs, Math.max(0, since + c.driftMaxWaitMs - now));
  const entry: Pending = { since, folding: false, timer: null };
  entry.timer = setTimeout(() => foldSlice(store, projectId, entry), wait);
  entry.timer.unref();
  pending.set(projectId, entry);
}

/**
 * A drift read of a project whose backlog nobody is folding (rows written by another process, or a
 * restart before the fold ran) starts the fold now; the read itself does not wait for it.
 */
export function ensureDriftFold(store: Store, projectId: string, upToDate: boolean): void {
  if (!upToDate && !pending.has(projectId)) scheduleDriftFold(store, projectId, 0);
}

/** At start-up, catches up every project left behind (a crash mid-fold, a copied database). */
export function startDriftJobs(store: Store): void {
  for (const projectId of listProjectsBehindOnDrift(store)) scheduleDriftFold(store, projectId, 0);
}

function foldSlice(store: Store, projectId: string, entry: Pending): void {
  entry.folding = true;
  entry.timer = null;
  try {
    const folded = foldDriftChunk(store, projectId, Date.now(), SLICE_ROWS);
    if (folded.spans + folded.errors > 0) {
      setImmediate(() => foldSlice(store, projectId, entry));
      return;
    }
    // Caught up: recompute the findings (their cost grows with codes × releases, not with rows).
    refreshDrift(store, projectId);
  } catch (error) {
    console.error("[faultline] background drift fold failed; the next ingest or drift read retries", error);
  }
  pending.delete(projectId);
}
