import type { Store } from "@/db/client";
import { foldDriftChunk, refreshDrift } from "@/db/drift/refresh-drift";

const DEBOUNCE_MS = Number(process.env.FAULTLINE_DRIFT_REFRESH_MS ?? 2000);
const state = globalThis as unknown as { __faultlineDriftPending?: Set<string> };
const pending = (state.__faultlineDriftPending ??= new Set());

/**
 * Folds newly ingested rows into the drift accumulators shortly after ingest, off the request path,
 * so that a page view after a large ingest does not pay for the catch-up. Debounced per project, and
 * one chunk per event-loop turn so that ingest requests interleave with a long catch-up. Reads still
 * call `refreshDrift` first, which is cheap once this has run.
 */
export function scheduleDriftRefresh(store: Store, projectId: string): void {
  if (pending.has(projectId)) return;
  pending.add(projectId);
  const step = () => {
    try {
      const folded = foldDriftChunk(store, projectId);
      if (folded.spans + folded.errors > 0) {
        setImmediate(step);
        return;
      }
      refreshDrift(store, projectId);
    } catch (error) {
      console.error("[faultline] background drift refresh failed; the next drift read retries", error);
    }
    pending.delete(projectId);
  };
  setTimeout(step, DEBOUNCE_MS).unref();
}
