import type { Store } from "@/db/client";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { checkIntegrity, dropExpiredDays, ensurePartitionsAhead, packClosedDays } from "@/db/store/engine-upkeep";
import { withJobLock, type JobLease } from "@/db/store/job-lock";
import { pruneExpiredRuns, pruneRollups } from "@/db/retention/prune-expired";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { stopTrippedExperiments } from "@/db/experiments/stop-tripped";
import { deliverDue } from "../alerts/deliver";
import type { Job, JobOutcome } from "./job-messages";
import { reclassifyProject } from "./reclassify-job";

// Rows per fold transaction: ~7 µs a row on SQLite keeps each write lock under ~10 ms.
const FOLD_CHUNK = 1000;

const BUSY = "another node is running this job";
const LOST = "lost the job lock mid-way (its connection ended); rows committed so far stay, the next run resumes";

async function driftFold(store: Store, projectId: string, lease: JobLease): Promise<JobOutcome> {
  // Folds every new row, then recomputes the findings (their cost grows with codes × releases, not rows).
  const r = await refreshDrift(store, projectId, Date.now(), { limit: FOLD_CHUNK, keepGoing: lease.held });
  const rows = r.spans + r.errors;
  return (await lease.held()) ? { rows } : { rows, skipped: LOST };
}

async function retention(store: Store, policy: Extract<Job, { job: "retention" }>["policy"], lease: JobLease): Promise<JobOutcome> {
  let rows = 0;
  // Whole expired days go first where the engine partitions them (PostgreSQL); the run pruning below
  // then removes the rest of expired runs, the runs over the span cap, and the rollups.
  rows += await dropExpiredDays(store, policy.rawCutoffMs);
  for (;;) {
    if (!(await lease.held())) return { rows, skipped: LOST };
    const pruned = await pruneExpiredRuns(store, policy);
    if (pruned.runs === 0) break;
    rows += pruned.spans + pruned.toolErrors;
  }
  await pruneRollups(store, policy);
  return { rows };
}

/**
 * Runs one background job on a store, at most once at a time across every node sharing the
 * database (see db/store/job-lock.ts): a fold per project, retention and partition upkeep for the whole
 * database. When another node holds the job, the outcome says `skipped` and nothing was done.
 */
export async function runJob(store: Store, job: Job): Promise<JobOutcome> {
  const locked = async (kind: "drift-fold" | "reclassify" | "retention" | "partitions" | "alerts", scope: string, fn: (lease: JobLease) => Promise<JobOutcome>) => {
    const result = await withJobLock(store, kind, scope, fn);
    return result.ran ? result.value : { rows: 0, skipped: BUSY };
  };
  switch (job.job) {
    case "quick-check":
      return checkIntegrity(store);
    case "drift-fold":
      return locked("drift-fold", job.projectId, (lease) => driftFold(store, job.projectId, lease));
    case "reclassify":
      return locked("reclassify", job.projectId, (lease) => reclassifyProject(store, job.projectId, lease));
    case "retention":
      return locked("retention", "all", (lease) => retention(store, job.policy, lease));
    case "alerts":
      // One node evaluates and delivers at a time, so a state change is written and sent once.
      return locked("alerts", "all", async () => {
        const written = await evaluateAlerts(store, Date.now(), job.publicUrl);
        // Guards stop experiments here, on the alert tick, so their alerts are delivered in the same pass.
        const guarded = await stopTrippedExperiments(store, Date.now(), job.publicUrl);
        const attempts = await deliverDue(store, job.delivery);
        return { rows: written + guarded + attempts, detail: `${written} notifications, ${guarded} experiments stopped by a guard, ${attempts} delivery attempts` };
      });
    case "partitions":
      return locked("partitions", "all", async () => {
        const made = await ensurePartitionsAhead(store, Date.now(), job.daysBack);
        // Then the days that are over get their indexes packed (created partitions are counted as rows).
        const packed = await packClosedDays(store, Date.now());
        return packed.skipped === undefined ? { ...made, detail: packed.detail } : made;
      });
  }
}
