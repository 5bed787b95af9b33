import { openStore, type Store } from "@/db/client";
import { config } from "./config";

const globalStore = globalThis as unknown as { __faultlineStore?: Store };

/** The process-wide writer connection (one per process; Next may load this module more than once). */
export function getStore(): Store {
  const c = config();
  globalStore.__faultlineStore ??= openStore(c.dbPath, { busyTimeoutMs: c.busyTimeoutMs });
  return globalStore.__faultlineStore;
}
