import type { Store } from "@/db/client";
import { config } from "../config";
import { foldDriftChunk, refreshDrift } from "@/db/drift/refresh-drift";

// ~7 µs a row: a 1,000-row chunk holds the event loop and the writer for under 10 ms.
const BACKGROUND_CHUNK = 1000;

interface Pending {
  timer: NodeJS.Timeout;
  since: number;
  folding: boolean;
}
const state = globalThis as unknown as { __faultlineDrift?: Map<string, Pending> };
const pending = (state.__faultlineDrift ??= new Map());

/**
 * Folds newly ingested rows into the drift accumulators after ingest, off the request path, so that
 * a page view after a large ingest does not pay for the catch-up. Debounced per project: it runs
 * once ingest has paused for a moment, or at the latest FAULTLINE_DRIFT_MAX_WAIT_MS after the first unfolded batch,
 * so a sustained stream is not slowed batch by batch. One chunk per event-loop turn lets ingest
 * requests interleave with a long catch-up. Reads still call `refreshDrift` first, cheap after this.
 */
export function scheduleDriftRefresh(store: Store, projectId: string): void {
  const now = Date.now();
  const current = pending.get(projectId);
  if (current?.folding) return;
  if (current) clearTimeout(current.timer);
  const since = current?.since ?? now;
  const entry: Pending = { since, folding: false, timer: setTimeout(() => fold(store, projectId, entry), Math.min(config().driftQuietMs, Math.max(0, since + config().driftMaxWaitMs - now))) };
  entry.timer.unref();
  pending.set(projectId, entry);
}

function fold(store: Store, projectId: string, entry: Pending): void {
  entry.folding = true;
  try {
    const folded = foldDriftChunk(store, projectId, Date.now(), BACKGROUND_CHUNK);
    if (folded.spans + folded.errors > 0) {
      setImmediate(() => fold(store, projectId, entry));
      return;
    }
    refreshDrift(store, projectId);
  } catch (error) {
    console.error("[faultline] background drift refresh failed; the next drift read retries", error);
  }
  pending.delete(projectId);
}
