// Bench only: splits the process CPU of an in-process SQLite ingest into the time spent inside
// better-sqlite3's native calls (the SQLite engine, with its argument binding and row building) and
// the rest (our JavaScript, GC, the event loop). Every `Statement` run/get/all and `Database` exec is
// wrapped in process.cpuUsage while a meter is on; the wrapper's own cost is measured on a no-op
// wrapped the same way and subtracted, so the split is measured, not a difference of two runs.
import { readFileSync, readdirSync } from "node:fs";
import Database from "better-sqlite3";

type Method = (this: unknown, ...args: unknown[]) => unknown;

const STATEMENT_METHODS = ["run", "get", "all"] as const;

let inside = 0;
let calls = 0;
let depth = 0;

function timed(fn: Method): Method {
  return function (this: unknown, ...args: unknown[]) {
    // A native call that calls back into JavaScript that runs a statement (a user function) would
    // count twice; only the outermost call is timed.
    if (depth > 0) return fn.apply(this, args);
    depth++;
    const c0 = process.cpuUsage();
    try {
      return fn.apply(this, args);
    } finally {
      const c = process.cpuUsage(c0);
      depth--;
      inside += c.user + c.system;
      calls++;
    }
  };
}

/** The wrapper's cost per call: inside the timed interval, and in all (the process's CPU). */
interface Calibration {
  insideUs: number;
  totalUs: number;
}

function calibrate(n = 100_000): Calibration {
  const noop = timed(function (this: unknown) {
    return this;
  });
  const bare = function (this: unknown) {
    return this;
  };
  const loop = (f: Method) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) f.call(i);
    const c = process.cpuUsage(c0);
    return c.user + c.system;
  };
  // Warm both paths first, then take the cheaper of three tries (the machine is shared).
  loop(noop);
  loop(bare);
  let best: Calibration = { insideUs: Infinity, totalUs: Infinity };
  for (let k = 0; k < 3; k++) {
    inside = 0;
    calls = 0;
    const wrapped = loop(noop);
    const plain = loop(bare);
    const insideUs = inside / calls;
    const totalUs = (wrapped - plain) / n;
    if (totalUs < best.totalUs) best = { insideUs, totalUs };
  }
  inside = 0;
  calls = 0;
  return best;
}

/** CPU seconds of each thread of this process other than the main one, by thread name. */
export function otherThreadsCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** What a metered stretch measured: µs in better-sqlite3's calls (wrapper cost removed), the calls, and the wrapper's total cost. */
export interface Split {
  sqliteUs: number;
  calls: number;
  overheadUs: number;
}

/**
 * Turns the meter on: better-sqlite3's statement and exec calls are timed until the returned stop
 * function, which puts the original methods back and answers the split.
 */
export function meterSqlite(db: Database.Database): () => Split {
  const statementProto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, Method>;
  const databaseProto = Database.prototype as unknown as Record<string, Method>;
  const originals = STATEMENT_METHODS.map((m) => statementProto[m]!);
  const exec = databaseProto.exec!;
  const calibration = calibrate();
  STATEMENT_METHODS.forEach((m, i) => (statementProto[m] = timed(originals[i]!)));
  databaseProto.exec = timed(exec);
  inside = 0;
  calls = 0;
  return () => {
    STATEMENT_METHODS.forEach((m, i) => (statementProto[m] = originals[i]!));
    databaseProto.exec = exec;
    return {
      sqliteUs: inside - calls * calibration.insideUs,
      calls,
      overheadUs: calls * calibration.totalUs,
    };
  };
}
