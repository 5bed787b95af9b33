import { config } from "../config";
import { ApiError } from "./api-error";
import { processState } from "../process-state";

interface Slots {
  total: number;
  byKey: Map<string, number>;
}
const slots = processState("ingest-slots", (): Slots => ({ total: 0, byKey: new Map() }));

/** Ingest slots in use, in all and for one key (for tests and health). */
export function slotsInUse(key?: string): number {
  return key === undefined ? slots.total : (slots.byKey.get(key) ?? 0);
}

/**
 * Runs `fn` unless too many ingest requests are already buffering bodies, in all
 * (FAULTLINE_MAX_INFLIGHT) or for this key (FAULTLINE_MAX_INFLIGHT_PER_KEY); then the client gets a
 * 429 and backs off instead of the process growing memory without bound. The per-key bound means
 * one client, slow or greedy, cannot hold every slot while the others are turned away.
 */
export async function withIngestSlot<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const { maxInflight, maxInflightPerKey } = config();
  if (slots.total >= maxInflight) {
    throw new ApiError("rate_limited", `too many concurrent ingest requests (${maxInflight}); retry later`, undefined, { "Retry-After": "1" });
  }
  const mine = slots.byKey.get(key) ?? 0;
  if (mine >= maxInflightPerKey) {
    throw new ApiError("rate_limited", `too many concurrent ingest requests with this key (${maxInflightPerKey}); retry later`, undefined, {
      "Retry-After": "1",
    });
  }
  slots.total++;
  slots.byKey.set(key, mine + 1);
  try {
    return await fn();
  } finally {
    slots.total--;
    const left = (slots.byKey.get(key) ?? 1) - 1;
    if (left > 0) slots.byKey.set(key, left);
    else slots.byKey.delete(key);
  }
}
