import type { RetentionPolicy } from "@/db/retention/prune-expired";
import { config, type Config } from "../config";
import { jobRunner } from "./job-runner";

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
 * Prunes expired data on the job worker shortly after start-up and then every
 * FAULTLINE_RETENTION_EVERY_MS (an hour by default). The timers never keep the process alive.
 */
export function startRetention(): void {
  const sweep = () => {
    jobRunner()
      .run({ job: "retention", policy: retentionPolicy() })
      .catch((error: unknown) => console.error("[faultline] retention sweep failed; the next sweep retries", error));
  };
  setTimeout(sweep, 10_000).unref();
  setInterval(sweep, config().retentionEveryMs).unref();
}
