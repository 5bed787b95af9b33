import { config } from "../config";
import { ApiError } from "./api-error";

const state = globalThis as unknown as { __faultlineInFlight?: number };

/**
 * Runs `fn` unless too many ingest requests are already buffering bodies; then the client gets a 429
 * and backs off instead of the process growing memory without bound.
 */
export async function withIngestSlot<T>(fn: () => Promise<T>): Promise<T> {
  const max = config().maxInflight;
  const current = state.__faultlineInFlight ?? 0;
  if (current >= max) {
    throw new ApiError("rate_limited", `too many concurrent ingest requests (${max}); retry later`, undefined, {
      "Retry-After": "1",
    });
  }
  state.__faultlineInFlight = current + 1;
  try {
    return await fn();
  } finally {
    state.__faultlineInFlight = (state.__faultlineInFlight ?? 1) - 1;
  }
}
