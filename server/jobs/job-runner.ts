import { Worker } from "node:worker_threads";
import { config, storeTarget } from "../config";
import type { Job, JobOutcome, JobReply, JobRequest, JobWorkerData } from "./job-messages";
import { processState } from "../process-state";

/**
 * Days of partitions kept ready behind today: rows arrive for the last few days (clock skew, late
 * exports); older backfills go to the default partition. Not the retention period: that would be
 * 36,500 days of tables for a test's or a generous operator's setting.
 */
export const partitionDaysBack = (retentionDays: number) => Math.min(retentionDays, 7);

/**
 * PostgreSQL connections of the worker's own pool: a job holds one for its lock and runs its
 * statements on one more at a time (a third is slack). Jobs run one at a time per worker.
 */
const WORKER_POOL_MAX = 3;

interface Waiting {
  resolve: (outcome: JobOutcome) => void;
  reject: (error: Error) => void;
}

/**
 * Runs background jobs on one worker thread (started on first use). Jobs run one at a time in the
 * order asked. A worker that dies fails its waiting jobs and is replaced on the next job, so a bad
 * database state cannot take the server down with it.
 */
class JobRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /** Rows the job handled (0 when it was skipped). */
  run(job: Job): Promise<number> {
    return this.ask(job).then((outcome) => outcome.rows);
  }

  /** Like `run`, with the job's textual answer and whether it was skipped (another node runs it). */
  ask(job: Job): Promise<JobOutcome> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ ...job, id } satisfies JobRequest);
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const c = config();
    // The worker opens what the server opened: the PostgreSQL URL when set, else the SQLite file.
    const data: JobWorkerData = { target: storeTarget(c), poolMax: WORKER_POOL_MAX, busyTimeoutMs: c.busyTimeoutMs, partitionDaysBack: partitionDaysBack(c.retentionDays) };
    const worker = new Worker(new URL("./job-worker.ts", import.meta.url), { workerData: data });
    // Jobs are background work: an idle worker never keeps the process alive.
    worker.unref();
    worker.on("message", (reply: JobReply) => {
      const w = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) w?.resolve({ rows: reply.rows, detail: reply.detail, skipped: reply.skipped });
      else w?.reject(new Error(reply.error));
    });
    worker.on("error", (error) => this.fail(worker, error));
    worker.on("exit", (code) => this.fail(worker, new Error(`job worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
  }
}

const state = processState("jobs", (): { runner?: JobRunner } => ({}));

/** The process's job runner. */
export function jobRunner(): JobRunner {
  return (state.runner ??= new JobRunner());
}
