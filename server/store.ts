import { openStore, type Store } from "@/db/client";
import { config, storeTarget } from "./config";

const globalStore = globalThis as unknown as { __faultlineStore?: Promise<Store> };

/**
 * The process-wide store: one SQLite connection, or one PostgreSQL pool (Next may load this module
 * more than once, hence the global). A failed open is not cached, so the next request tries again.
 */
export function getStore(): Promise<Store> {
  if (!globalStore.__faultlineStore) {
    const c = config();
    const opening = openStore(storeTarget(c), { busyTimeoutMs: c.busyTimeoutMs, poolMax: c.pgPoolMax });
    globalStore.__faultlineStore = opening;
    opening.catch(() => {
      if (globalStore.__faultlineStore === opening) globalStore.__faultlineStore = undefined;
    });
  }
  return globalStore.__faultlineStore;
}
