import type { Store } from "@/db/client";
import { config, type Config } from "../config";
import { pruneExpiredRuns, pruneRollups, type RetentionPolicy } from "@/db/retention/prune-expired";

const DAY_MS = 86_400_000;

/** The retention settings from the environment (documented in the README). */
export function retentionPolicy(now: number = Date.now(), c: Config = config()): RetentionPolicy {
  return {
    rawCutoffMs: now - c.retentionDays * DAY_MS,
    maxSpans: c.maxSpans,
    rollupCutoffMs: now - c.rollupRetentionDays * DAY_MS,
  };
}

/**
 * Prunes expired data at start-up and every hour, one chunk of runs per event-loop turn so ingest
 * and reads interleave. The timer never keeps the process alive.
 */
export function startRetention(store: Store): void {
  const sweep = () => {
    const policy = retentionPolicy();
    const step = () => {
      try {
        const pruned = pruneExpiredRuns(store, policy);
        if (pruned.runs > 0) {
          setImmediate(step);
          return;
        }
        pruneRollups(store, policy);
      } catch (error) {
        console.error("[faultline] retention sweep failed; the next sweep retries", error);
      }
    };
    step();
  };
  setTimeout(sweep, 10_000).unref();
  setInterval(sweep, config().retentionEveryMs).unref();
}
