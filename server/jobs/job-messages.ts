import type { RetentionPolicy } from "@/db/retention/prune-expired";

/** What the main thread asks the job worker to do. */
export type JobRequest =
  | { id: number; job: "drift-fold"; projectId: string }
  | { id: number; job: "retention"; policy: RetentionPolicy }
  | { id: number; job: "quick-check" };

/** The worker's answer to one request. */
export type JobReply =
  | { id: number; ok: true; rows: number; detail?: string }
  | { id: number; ok: false; error: string };

/** What the worker needs to open its own connection to the server's database. */
export interface JobWorkerData {
  dbPath: string;
  busyTimeoutMs: number;
}
