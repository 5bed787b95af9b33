// `npx tsx bench/ingest-http-profile.ts [--db postgres] [--size 500] [--seconds 8] [--rounds 1]
// [--inproc] [--prof [--prof-out FILE]]` (needs a build; PostgreSQL on FAULTLINE_TEST_PG_URL, a
// server where it may create a scratch database): where the CPU of an ingest over HTTP goes.
// CLIENTS writers post native batches to a `next start` server; the bench prints the server's CPU
// per record thread by thread (its main thread, V8's helper threads, the job worker, the checkpoint
// worker: /proc/PID/task), and this client's, with each one's share of a core. `--inproc` does the
// server's work without HTTP for comparison: the same bodies through the route's own calls
// (format.parse, ingestEnvelope) on a store opened as the server opens its own (SQLite). `--prof`
// also profiles the server's main thread over the measured seconds (bench/cpu-profile-hook.mjs)
// and prints its busy time by kind of work; `--prof-out` keeps the .cpuprofile.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "../db/client";
import { ensureDefaultProject } from "../db/keys";
import { nativeFormat } from "../lib/ingest/formats/native";
import { ingestEnvelope } from "../server/ingest/ingest-envelope";
import { startServer } from "../test/helpers/server";
import { CLIENTS, RESOURCE, batchBody, records, tmpFile } from "./ingest-common";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite" },
    size: { type: "string", default: "500" },
    seconds: { type: "string", default: "8" },
    rounds: { type: "string", default: "1" },
    /** Seconds with no request between rounds (bench:ingest's raw rounds leave its server idle that long). */
    pause: { type: "string", default: "5.5" },
    inproc: { type: "boolean", default: false },
    prof: { type: "boolean", default: false },
    "prof-out": { type: "string" },
  },
});
const SIZE = Number(args.size);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const PAUSE = Number(args.pause);

/** CPU seconds so far of each thread of `pid` (the main thread as "main"), summed by thread name. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = tid === String(pid) ? "main" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).trim();
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended
    }
  }
  return out;
}

function addDiff(into: Map<string, number>, after: Map<string, number>, before: Map<string, number>): void {
  for (const [k, v] of after) into.set(k, (into.get(k) ?? 0) + v - (before.get(k) ?? 0));
}

function printThreads(label: string, cpu: Map<string, number>, recordsDone: number, wallS: number): void {
  const total = [...cpu.values()].reduce((a, b) => a + b, 0);
  console.log(`${label}: ${((total * 1e6) / recordsDone).toFixed(1)} µs/record, ${((100 * total) / wallS).toFixed(0)} % of one core`);
  for (const [name, s] of [...cpu].sort((a, b) => b[1] - a[1])) {
    if (s > 0) console.log(`  ${name.padEnd(18)} ${((s * 1e6) / recordsDone).toFixed(1).padStart(6)} µs/record  ${((100 * s) / wallS).toFixed(0).padStart(3)} % of one core`);
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** The kind of work a sample's innermost frame does (the server's own code is bundled: one kind). */
function kindOf(frame: ProfileNode["callFrame"]): string {
  const { functionName: fn, url } = frame;
  if (fn === "(garbage collector)") return "GC";
  if (url === "" && ["run", "exec", "all", "get", "iterate", "pragma", "prepare"].includes(fn)) return "SQLite statements (better-sqlite3 calls)";
  if (/node_modules\/better-sqlite3\//.test(url)) return "SQLite statements (better-sqlite3 calls)";
  if (/node_modules\/next\/|\.next\/server\/chunks\/\[root-of-the-server\]|\[turbopack\]/.test(url)) return "Next (routing, request and response objects)";
  if (/\.next\/server\//.test(url)) return "the app's bundled code (ingest, store, HTTP checks)";
  if (/^node:(internal\/)?(_http|http|net|stream|internal\/streams|internal\/webstreams|internal\/deps\/undici|buffer|zlib)/.test(url) || /^write|^writev|^writeUtf8String|^writeBuffer/.test(fn)) {
    return "Node HTTP, sockets and streams";
  }
  if (url === "" && fn === "JSON.parse") return "JSON";
  return url === "" ? `native: ${fn || "(anonymous)"}` : "other Node internals";
}

function summariseProfile(file: string): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byKind = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    byKind.set(kindOf(frame), (byKind.get(kindOf(frame)) ?? 0) + us);
  });
  // Wall-time samples: a thread descheduled on a busy machine counts as busy in the frame it was in.
  console.log(`server main thread, profiled (wall-time samples, ${(busy / 1e6).toFixed(1)} s not idle), by innermost frame:`);
  for (const [kind, us] of [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${kind}`);
}

/** The server's work without HTTP, in this process: a store opened as server/store.ts opens it, the route's own calls. */
async function inProcess() {
  if (args.db !== "sqlite") throw new Error("--inproc is SQLite only");
  const file = tmpFile("inproc.db");
  const store = await openStore(file, { checkpointInBackground: true });
  await ensureDefaultProject(store);
  const none = new URLSearchParams();
  return {
    pid: process.pid,
    async ingest(body: string) {
      const result = await ingestEnvelope(store, "default", nativeFormat, nativeFormat.parse(Buffer.from(body), "application/json", none));
      if (result.rejected.length > 0) throw new Error(`rejected ${result.rejected.length}`);
    },
    async stop() {
      await store.close();
      rmSync(path.dirname(file), { recursive: true, force: true });
    },
  };
}

/** A `next start` server with the profiler hook loaded when asked: SIGUSR2 starts it and SIGUSR2 stops it. */
async function overHttp(profileFile: string | undefined) {
  const env: Record<string, string> = profileFile
    ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${path.resolve("bench/cpu-profile-hook.mjs")}`, FAULTLINE_CPU_PROFILE: profileFile }
    : {};
  const server = await startServer({ dialect: args.db === "postgres" ? "postgres" : "sqlite", env });
  return {
    pid: server.pid ?? 0,
    async ingest(body: string) {
      const res = await fetch(`${server.url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
    },
    stop: () => server.stop(),
  };
}

async function waitForFile(file: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if (readFileSync(file, "utf8").length > 0) return;
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const profileFile = args.prof && !args.inproc ? tmpFile("server.cpuprofile") : undefined;
  const target = args.inproc ? await inProcess() : await overHttp(profileFile);
  const tpl = JSON.stringify({ resource: RESOURCE, records: records(SIZE).map((r) => ({ type: "tool_call_span", ...r })) });
  let n = 0;
  let bodyCpu = 0;
  const step = async () => {
    const c0 = process.cpuUsage();
    const body = batchBody(tpl, `prof-${SIZE}-${n}`, n, SIZE);
    const c = process.cpuUsage(c0);
    bodyCpu += (c.user + c.system) / 1e6;
    n++;
    await target.ingest(body);
  };
  const loop = async (until: number, each?: () => void) => {
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < until) {
          await step();
          each?.();
        }
      }),
    );
  };
  try {
    const serverCpu = new Map<string, number>();
    const clientCpu = new Map<string, number>();
    let wallS = 0;
    let done = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, PAUSE * 1000));
      await loop(performance.now() + (round === 0 ? 3000 : 1500));
      if (profileFile && round === 0) process.kill(target.pid, "SIGUSR2");
      const server0 = threadCpu(target.pid);
      const client0 = threadCpu(process.pid);
      const t0 = performance.now();
      await loop(t0 + SECONDS * 1000, () => (done += SIZE));
      wallS += (performance.now() - t0) / 1000;
      addDiff(serverCpu, threadCpu(target.pid), server0);
      if (!args.inproc) addDiff(clientCpu, threadCpu(process.pid), client0);
    }
    const where = args.inproc ? "in process (no HTTP)" : "over HTTP";
    console.log(`${args.db} ${where}, ${CLIENTS} writers, ${SIZE}-record native batches, ${ROUNDS} × ${SECONDS} s: ${Math.round(done / wallS)} records/s; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
    printThreads(args.inproc ? "this process" : "server", serverCpu, done, wallS);
    if (!args.inproc) printThreads("client (this bench)", clientCpu, done, wallS);
    console.log(`  of which making the bodies (batchBody): ${((bodyCpu * 1e6) / (n * SIZE)).toFixed(1)} µs/record`);
    // What the server spends with no request in flight (timers, the drift fold, the checkpoint worker).
    const idle0 = threadCpu(target.pid);
    await new Promise((r) => setTimeout(r, 4000));
    const idle = new Map<string, number>();
    addDiff(idle, threadCpu(target.pid), idle0);
    const shares = [...idle].filter(([, s]) => s > 0).map(([k, s]) => `${k} ${((100 * s) / 4).toFixed(1)} %`);
    console.log(`the 4 s after the load, no request: ${shares.join(", ") || "no CPU"} of one core`);
    if (profileFile) {
      process.kill(target.pid, "SIGUSR2");
      await waitForFile(profileFile);
      summariseProfile(profileFile);
      if (args["prof-out"]) writeFileSync(args["prof-out"], readFileSync(profileFile));
      rmSync(path.dirname(profileFile), { recursive: true, force: true });
    }
  } finally {
    await target.stop();
  }
}

await main();
