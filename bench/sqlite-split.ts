// Bench only: splits the CPU of an in-process SQLite ingest into the time spent inside
// better-sqlite3's native calls (the SQLite engine, with its argument binding and row building), the
// main thread's other work (our JavaScript, GC, the event loop) and the other threads (the checkpoint
// worker, V8's helpers). While a meter is on, every `Statement` run/get/all and `Database` exec is
// wrapped and timed with performance.now(), which reads the clock without a system call. Timing each
// call with process.cpuUsage (getrusage) was tried first: the system call made the statement after
// it slower, so the engine's share came out larger than the whole. The main thread is busy for the
// whole round (SQLite's calls are synchronous), so its CPU (schedstat) is shared between inside and
// outside the calls in proportion to their wall time; being descheduled hits both alike. The
// wrapper's own cost is measured on a no-op wrapped the same way and taken out: the split is
// measured, not a difference of two runs.
import { readFileSync, readdirSync } from "node:fs";
import Database from "better-sqlite3";

type Method = (this: unknown, ...args: unknown[]) => unknown;

const STATEMENT_METHODS = ["run", "get", "all"] as const;

let insideMs = 0;
let calls = 0;
let depth = 0;

function timed(fn: Method): Method {
  return function (this: unknown, ...args: unknown[]) {
    // A native call that calls back into JavaScript that runs a statement (a user function) would
    // count twice; only the outermost call is timed.
    if (depth > 0) return fn.apply(this, args);
    depth++;
    const t0 = performance.now();
    try {
      return fn.apply(this, args);
    } finally {
      insideMs += performance.now() - t0;
      depth--;
      calls++;
    }
  };
}

/** The main thread's CPU time so far, µs (the scheduler's own count, in ns). */
export function mainThreadCpuUs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;
}

/** CPU µs of this process's threads other than the main one so far (ended threads' time is lost). */
export function otherThreadsCpuUs(): number {
  let sum = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    if (Number(tid) === process.pid) continue;
    try {
      sum += Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1000;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return sum;
}

/** The wrapper's cost per call: wall ms inside the timed span, and CPU µs in all. */
interface Calibration {
  insideMs: number;
  totalUs: number;
}

function calibrate(n = 200_000): Calibration {
  const noop = timed(function (this: unknown) {
    return this;
  });
  const bare = function (this: unknown) {
    return this;
  };
  const loop = (f: Method) => {
    const c0 = mainThreadCpuUs();
    for (let i = 0; i < n; i++) f.call(i);
    return mainThreadCpuUs() - c0;
  };
  loop(noop);
  loop(bare);
  // The cheapest of three tries: the machine is shared, and being descheduled only adds.
  let best: Calibration = { insideMs: Infinity, totalUs: Infinity };
  for (let k = 0; k < 3; k++) {
    insideMs = 0;
    calls = 0;
    const wrapped = loop(noop);
    const plain = loop(bare);
    const totalUs = (wrapped - plain) / n;
    if (totalUs < best.totalUs) best = { insideMs: insideMs / calls, totalUs };
  }
  insideMs = 0;
  calls = 0;
  return best;
}

/** What a metered stretch measured, µs: inside better-sqlite3's calls, the rest of the main thread, the wrapper's cost (taken out of both), and the calls. */
export interface Split {
  sqliteUs: number;
  javascriptUs: number;
  overheadUs: number;
  calls: number;
}

/**
 * Turns the meter on: better-sqlite3's statement and exec calls are timed until the returned stop
 * function, which puts the original methods back and answers the main thread's split.
 */
export function meterSqlite(db: Database.Database): () => Split {
  const statementProto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, Method>;
  const databaseProto = Database.prototype as unknown as Record<string, Method>;
  const originals = STATEMENT_METHODS.map((m) => statementProto[m]!);
  const exec = databaseProto.exec!;
  const calibration = calibrate();
  STATEMENT_METHODS.forEach((m, i) => (statementProto[m] = timed(originals[i]!)));
  databaseProto.exec = timed(exec);
  insideMs = 0;
  calls = 0;
  const cpu0 = mainThreadCpuUs();
  const t0 = performance.now();
  return () => {
    const cpu = mainThreadCpuUs() - cpu0;
    const wallMs = performance.now() - t0;
    STATEMENT_METHODS.forEach((m, i) => (statementProto[m] = originals[i]!));
    databaseProto.exec = exec;
    const overheadUs = calls * calibration.totalUs;
    // The main thread's CPU per ms of its wall time.
    const rate = cpu / wallMs;
    const sqliteUs = Math.max(0, insideMs - calls * calibration.insideMs) * rate;
    return { sqliteUs, javascriptUs: cpu - overheadUs - sqliteUs, overheadUs, calls };
  };
}
