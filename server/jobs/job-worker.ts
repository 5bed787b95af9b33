// The background job worker: its own thread and its own connection to the server's database, so a
// drift fold or a retention sweep of any size never holds the thread that answers requests. SQLite
// in WAL mode lets the server read meanwhile; each job step is a short write transaction, so the
// server's writes wait at most one step for the lock.
import { parentPort, workerData } from "node:worker_threads";
import { openStore } from "@/db/client";
import { foldDriftChunk, refreshDrift } from "@/db/drift/refresh-drift";
import { quickCheck } from "@/db/queries/get-health";
import { pruneExpiredRuns, pruneRollups } from "@/db/retention/prune-expired";
import type { JobReply, JobRequest, JobWorkerData } from "./job-messages";

// Rows per fold transaction: ~7 µs a row keeps each write lock under ~10 ms.
const FOLD_CHUNK = 1000;

const data = workerData as JobWorkerData;
const store = openStore(data.dbPath, { busyTimeoutMs: data.busyTimeoutMs });

function run(request: JobRequest): number | { rows: number; detail: string } {
  switch (request.job) {
    case "quick-check": {
      // A damaged file can also fail the check itself (SQLITE_CORRUPT, SQLITE_NOTADB): that is its answer.
      try {
        return { rows: 0, detail: quickCheck(store) };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB"))) return { rows: 0, detail: code };
        throw error;
      }
    }
    case "drift-fold": {
      let rows = 0;
      for (;;) {
        const folded = foldDriftChunk(store, request.projectId, Date.now(), FOLD_CHUNK);
        if (folded.spans + folded.errors === 0) break;
        rows += folded.spans + folded.errors;
      }
      // Caught up: recompute the findings (their cost grows with codes × releases, not with rows).
      refreshDrift(store, request.projectId);
      return rows;
    }
    case "retention": {
      let rows = 0;
      for (;;) {
        const pruned = pruneExpiredRuns(store, request.policy);
        if (pruned.runs === 0) break;
        rows += pruned.spans + pruned.toolErrors;
      }
      pruneRollups(store, request.policy);
      return rows;
    }
  }
}

parentPort?.on("message", (request: JobRequest) => {
  let reply: JobReply;
  try {
    const result = run(request);
    reply = typeof result === "number" ? { id: request.id, ok: true, rows: result } : { id: request.id, ok: true, ...result };
  } catch (error) {
    reply = { id: request.id, ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  parentPort?.postMessage(reply);
});
