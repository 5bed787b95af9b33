import { openStore, type Store } from "@/db/client";
import { config, storeTarget } from "./config";
import { processState } from "./process-state";

const state = processState("store", (): { opening?: Promise<Store> } => ({}));

/**
 * The process-wide store: one SQLite connection, or one PostgreSQL pool. A failed open is not
 * cached, so the next request tries again.
 */
export function getStore(): Promise<Store> {
  if (!state.opening) {
    const c = config();
    // SQLite checkpoints on a worker thread, not inside the commits of the thread that answers requests.
    const opening = openStore(storeTarget(c), { busyTimeoutMs: c.busyTimeoutMs, poolMax: c.pgPoolMax, checkpointInBackground: true });
    state.opening = opening;
    opening.catch(() => {
      if (state.opening === opening) state.opening = undefined;
    });
  }
  return state.opening;
}

/**
 * Replaces the process's store with a fresh connection and closes the old one. SQLite opens a file it
 * cannot write read-only and keeps that connection read-only for good, even once the file is
 * writable again: the health check calls this when that happened (see health-check.ts).
 */
export async function reopenStore(): Promise<Store> {
  const old = state.opening;
  state.opening = undefined;
  const fresh = await getStore();
  // Statements already handed the old connection finish or fail on it; it is closed once they had their turn.
  if (old) setTimeout(() => void old.then((s) => s.close()).catch(() => undefined), 1000).unref();
  return fresh;
}
