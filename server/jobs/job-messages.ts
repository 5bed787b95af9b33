import type { RetentionPolicy } from "@/db/retention/prune-expired";
import type { DeliveryOptions } from "../alerts/deliver";

/** A background job, as the main thread asks for it. */
export type Job =
  | { job: "drift-fold"; projectId: string }
  /** Re-apply a project's changed classification rules to its stored failures. */
  | { job: "reclassify"; projectId: string }
  | { job: "retention"; policy: RetentionPolicy }
  /** PostgreSQL: create the daily partitions of the raw tables ahead (and `daysBack` days back), and pack the indexes of days that are over. */
  | { job: "partitions"; daysBack: number }
  /** Evaluate every alert rule, then deliver the notifications that are due. */
  | { job: "alerts"; publicUrl: string; delivery: DeliveryOptions }
  /** SQLite: read the whole file for damage. */
  | { job: "quick-check" };

/** What the main thread sends the job worker. */
export type JobRequest = Job & { id: number };

/** How a job ended: rows it handled, its textual answer, or why it did nothing. */
export interface JobOutcome {
  rows: number;
  detail?: string;
  /**
   * Set when the job did not run (or stopped early): another node holds its lock, it lost its lock
   * mid-way, or the engine has no such job. The work is not done here; asking again later is safe.
   */
  skipped?: string;
}

/** The worker's answer to one request. */
export type JobReply = ({ id: number; ok: true } & JobOutcome) | { id: number; ok: false; error: string };

/** What the worker needs to open its own connection(s) to the server's database. */
export interface JobWorkerData {
  /** The SQLite file path or the PostgreSQL URL: what the server itself opened. */
  target: string;
  /** PostgreSQL: the worker's own pool (a job holds one connection for its lock and uses one more). */
  poolMax: number;
  busyTimeoutMs: number;
  /** PostgreSQL: how many days back the partitions job made at worker start reaches (the raw retention). */
  partitionDaysBack: number;
}
