import { Worker } from "node:worker_threads";
import { config } from "../config";
import type { JobReply, JobRequest, JobWorkerData } from "./job-messages";

type Job = JobRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

interface Waiting {
  resolve: (reply: { rows: number; detail?: string }) => void;
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

  run(job: Job): Promise<number> {
    return this.ask(job).then((reply) => reply.rows);
  }

  /** Like `run`, with the job's textual answer too (the integrity check's findings). */
  ask(job: Job): Promise<{ rows: number; detail?: string }> {
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
    const data: JobWorkerData = { dbPath: c.dbPath, busyTimeoutMs: c.busyTimeoutMs };
    const worker = new Worker(new URL("./job-worker.ts", import.meta.url), { workerData: data });
    // Jobs are background work: an idle worker never keeps the process alive.
    worker.unref();
    worker.on("message", (reply: JobReply) => {
      const w = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) w?.resolve({ rows: reply.rows, detail: reply.detail });
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

const state = globalThis as unknown as { __faultlineJobs?: JobRunner };

/** The process's job runner. */
export function jobRunner(): JobRunner {
  state.__faultlineJobs ??= new JobRunner();
  return state.__faultlineJobs;
}
