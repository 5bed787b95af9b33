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
    const opening = openStore(storeTarget(c), { busyTimeoutMs: c.busyTimeoutMs, poolMax: c.pgPoolMax });
    state.opening = opening;
    opening.catch(() => {
      if (state.opening === opening) state.opening = undefined;
    });
  }
  return state.opening;
}
