import type { RetentionPolicy } from "@/db/retention/prune-expired";
import { config, type Config } from "../config";
import { jobRunner, partitionDaysBack } from "./job-runner";

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
 * FAULTLINE_RETENTION_EVERY_MS (an hour by default), and on PostgreSQL keeps the daily partitions
 * of the raw tables created ahead and those of past days packed, once a day (the worker also does it when it starts). With
 * several nodes each one asks; one at a time runs (the others' sweeps are skipped). The timers
 * never keep the process alive.
 */
export function startRetention(): void {
  const sweep = () => {
    jobRunner()
      .ask({ job: "retention", policy: retentionPolicy() })
      .catch((error: unknown) => console.error("[faultline] retention sweep failed; the next sweep retries", error));
  };
  const partitions = () => {
    jobRunner()
      .ask({ job: "partitions", daysBack: partitionDaysBack(config().retentionDays) })
      .catch((error: unknown) => console.error("[faultline] creating partitions ahead failed; tomorrow's run retries", error));
  };
  setTimeout(sweep, 10_000).unref();
  setInterval(sweep, config().retentionEveryMs).unref();
  setInterval(partitions, DAY_MS).unref();
}
