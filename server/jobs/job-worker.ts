// The background job worker: its own thread and its own connection(s) to the server's database, so
// a drift fold or a retention sweep of any size never holds the thread that answers requests. On
// SQLite (WAL mode) the server reads meanwhile and each job step is a short write transaction, so
// the server's writes wait at most one step for the lock. On PostgreSQL the worker has a small pool
// of its own, and each job first takes its lock so that one node at a time runs it (run-job.ts).
import { parentPort, workerData } from "node:worker_threads";
import { openStore } from "@/db/client";
import { hasPartitions } from "@/db/store/engine-upkeep";
import type { JobOutcome, JobReply, JobRequest, JobWorkerData } from "./job-messages";
import { runJob } from "./run-job";

const data = workerData as JobWorkerData;
const opening = openStore(data.target, { busyTimeoutMs: data.busyTimeoutMs, poolMax: data.poolMax });
opening.catch((error: unknown) => {
  // The runner replaces a worker that exits, on the next job: a later attempt may open it.
  console.error("[faultline] the job worker could not open the database", error instanceof Error ? error.message : error);
  process.exit(1);
});

// Jobs run one at a time, in the order asked.
let queue: Promise<unknown> = Promise.resolve();

function enqueue(request: JobRequest, reply: (r: JobReply) => void): void {
  queue = queue.then(async () => {
    try {
      const outcome: JobOutcome = await runJob(await opening, request);
      reply({ id: request.id, ok: true, ...outcome });
    } catch (error) {
      reply({ id: request.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  });
}

parentPort?.on("message", (request: JobRequest) => enqueue(request, (r) => parentPort?.postMessage(r)));

// Partitioned raw tables (PostgreSQL): make sure of the partitions ahead as soon as a worker starts (then daily, asked by
// the main thread): ingest must find the day's partition, not fill the DEFAULT one.
void opening.then((store) => {
  if (!hasPartitions(store)) return;
  enqueue({ id: 0, job: "partitions", daysBack: data.partitionDaysBack }, (r) => {
    if (!r.ok) console.error(`[faultline] creating partitions ahead failed; the daily run retries: ${r.error}`);
  });
});
