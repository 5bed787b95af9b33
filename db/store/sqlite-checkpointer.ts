import type Database from "better-sqlite3";
import { Worker } from "node:worker_threads";

// WAL checkpoints off the thread that writes. SQLite's automatic checkpoint runs inside the COMMIT
// that pushes the WAL past 1,000 pages, on the writer's thread: copying the pages into the database
// file and two fsyncs, during which a server answers nothing (a 500-record ingest commit took
// 1.9 ms at the median without checkpoints and 8.7 ms with them, p90 2.8 against 32 ms;
// docs/ingest-performance.md). A worker thread with its own connection runs a PASSIVE checkpoint
// once the WAL holds `pages` pages not yet copied (SQLite's own threshold, so it does the same work,
// elsewhere): it copies what is committed without taking the write lock, so the writer goes on
// meanwhile, and once it has copied everything the writer's next transaction restarts the WAL from
// its beginning. Durability is SQLite's own either way: a checkpoint only copies committed frames,
// and the WAL is restarted only once they are all in the (synced) database file.
//
// Bounds: when the WAL holds more than `capPages` pages the worker runs a TRUNCATE checkpoint, which
// waits for the writer and then empties the WAL (the writer's `BEGIN IMMEDIATE` waits meanwhile,
// without blocking its thread: sqlite-write-lock.ts). It waits at most `busyTimeoutMs`: a reader still
// on an older snapshot (a long read of the job worker) keeps any checkpoint from emptying the WAL, and
// must not hold the writer back with it. The writer's own automatic checkpoint stays
// on at twice the cap, so a WAL never grows past that even if the worker is gone; when the worker
// stops unasked, the writer gets SQLite's default back.

/** When the checkpoint worker checkpoints, and when it empties the WAL whatever it waits for. */
export interface CheckpointerOptions {
  /** How often the worker looks at the WAL (default 20 ms): reading its index header costs microseconds. */
  intervalMs?: number;
  /** Committed pages not yet copied at which the worker checkpoints (default 1,000, SQLite's automatic threshold). */
  pages?: number;
  /** WAL pages past which the worker runs a TRUNCATE checkpoint (default 4,096: 16 MiB of 4 KiB pages). */
  capPages?: number;
  /** How long a TRUNCATE checkpoint waits for the writer and readers, holding new writes back meanwhile (default 100 ms). */
  busyTimeoutMs?: number;
}

/** The worker of one database file. */
export interface Checkpointer {
  /** Stops the worker and closes its connection (before the writer's own close, which then removes the WAL). */
  close(): Promise<void>;
}

const DEFAULT_AUTOCHECKPOINT = 1000;

// Plain JavaScript evaluated in the worker: no bundler has to know of a second entry point. The
// driver is loaded as the application loads it, from the project's node_modules.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { closeSync, openSync, readSync } = require("node:fs");
const { endianness } = require("node:os");
const Database = require("node:module").createRequire(workerData.cwd + "/")("better-sqlite3");
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = " + workerData.busyTimeoutMs);
db.pragma("synchronous = NORMAL");
// Frames committed and not yet copied, from the wal-index header (sqlite.org/walformat.html: mxFrame
// at byte 16, the checkpoint's nBackfill at byte 96, in the machine's byte order): read, not locked,
// so a torn read only moves one checkpoint by one poll.
const shm = openSync(workerData.file + "-shm", "r");
const header = Buffer.alloc(100);
const u32 = (at) => (endianness() === "LE" ? header.readUInt32LE(at) : header.readUInt32BE(at));
const frames = () => (readSync(shm, header, 0, 100, 0) < 100 ? { total: 0, pending: 0 } : { total: u32(16), pending: u32(16) - u32(96) });
let timer = null;
// A TRUNCATE holds new writes back while it waits (busy_timeout) for the writer and older readers; one
// that gave up waits a second before the next, so a long reader never keeps the writer waiting in turn.
let truncateAfter = 0;
const tick = () => {
  timer = null;
  try {
    const wal = frames();
    if (wal.pending >= workerData.pages || (wal.total > workerData.capPages && Date.now() >= truncateAfter)) {
      const [{ log }] = db.pragma("wal_checkpoint(PASSIVE)");
      if (log > workerData.capPages && Date.now() >= truncateAfter) {
        const [{ busy }] = db.pragma("wal_checkpoint(TRUNCATE)");
        if (busy) truncateAfter = Date.now() + 1000;
      }
    }
  } catch (error) {
    if (error && error.code === "SQLITE_BUSY") truncateAfter = Date.now() + 1000;
    // Tried again next time, as a full disk or a file turned read-only (which the writer meets and reports itself).
    else parentPort.postMessage({ code: String(error && error.code), message: String(error && error.message) });
  }
  timer = setTimeout(tick, workerData.intervalMs);
};
parentPort.on("message", (message) => {
  if (message !== "close") return;
  if (timer) clearTimeout(timer);
  closeSync(shm);
  db.close();
  parentPort.close();
});
tick();
`;

/**
 * Starts checkpointing `file` (a WAL database the writer `sqlite` has open) on a worker thread, and
 * turns the writer's automatic checkpoint into the fallback described above. The worker never keeps
 * the process alive.
 */
export function startCheckpointer(sqlite: Database.Database, file: string, options: CheckpointerOptions = {}): Checkpointer {
  const capPages = options.capPages ?? 4096;
  sqlite.pragma(`wal_autocheckpoint = ${capPages * 2}`);
  // A WAL that grew towards the cap is cut back to it when it restarts, not kept at its largest.
  sqlite.pragma(`journal_size_limit = ${capPages * 4096}`);
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, cwd: process.cwd(), intervalMs: options.intervalMs ?? 20, pages: options.pages ?? DEFAULT_AUTOCHECKPOINT, capPages, busyTimeoutMs: options.busyTimeoutMs ?? 100 },
  });
  worker.unref();
  let closing = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  // Each kind of failure is logged once, not every interval.
  const reported = new Set<string>();
  worker.on("message", (failure: { code: string; message: string }) => {
    if (reported.has(failure.code)) return;
    reported.add(failure.code);
    console.error(`[faultline] the SQLite checkpoint worker could not checkpoint (${failure.code}): ${failure.message}; it tries again`);
  });
  worker.on("error", (error) => {
    if (!closing) console.error("[faultline] the SQLite checkpoint worker stopped; the writer checkpoints itself again:", error.message);
  });
  void exited.then(() => {
    if (!closing && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`);
  });
  return {
    async close() {
      if (closing) return exited;
      closing = true;
      // Unreferenced, the worker would let a script's loop run dry while close() waits for it: the
      // process would end there, silently, with the rest of the script not run.
      worker.ref();
      worker.postMessage("close");
      const timeout = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), 5000).unref());
      if ((await Promise.race([exited, timeout])) === "late") await worker.terminate();
    },
  };
}
