// `npm run bench:ingest -- --cpu [--db postgres --url …]` — CPU per 1,000 records of the ingest path
// in-process (parse, validate, normalise, NUL rule, classify, plan, write, rollups: everything after
// the HTTP layer), per format and engine. Node's CPU is the process's own (process.cpuUsage); on
// PostgreSQL the database's is the CPU its backends for the scratch database used (/proc/<pid>/stat),
// so the two are reported apart. SQLite runs inside Node, so its cost is in the Node figure: each
// SQLite round is followed by a metered one (bench/sqlite-split.ts) that splits Node's CPU into the
// time inside better-sqlite3's calls, the main thread's JavaScript and the other threads'. BENCH_WRITERS
// sets the concurrent writers (default 2).
// Formats take turns round by round (the machine's load hits each alike); medians and ranges printed.
// Run under `node --cpu-prof` (`BENCH_CPU_PROF=1`) to see where Node's time goes. A third case, `raw`,
// writes the native case's span, failure-fact and rollup rows with the ingest's own statements and
// nothing else (bench/ingest-baseline.ts, its own database): what the storage itself costs, so the
// difference to `native` is the rest of the ingest path.
import { openStore, openPgStore, type Store } from "../db/client";
import { nativeFormat } from "../lib/ingest/formats/native";
import { otlpFormat } from "../lib/ingest/formats/otlp";
import type { IngestFormat } from "../lib/ingest/format";
import { ingestEnvelope } from "../server/ingest/ingest-envelope";
import { rawPgWriter, rawSqliteWriter, SERVER_SQLITE, type RawWriter } from "./ingest-baseline";
import { meterSqlite, otherThreadsCpuUs } from "./sqlite-split";
import { CLIENTS, RESOURCE, ROUNDS, SECONDS, T0, batchBody, median, procCpuSeconds, records, tmpFile } from "./ingest-common";

const SIZE = 100;
/** Concurrent writers; BENCH_WRITERS=8 shows what rollup row contention costs the database. */
const WRITERS = Number(process.env.BENCH_WRITERS ?? CLIENTS);
const encoder = new TextEncoder();

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const int = (key: string, v: number) => ({ key, value: { intValue: v } });

/** A native request of SIZE records (the ingest bench's records): new ids, times moved on. */
export function nativeBody(tpl: string, batch: number): Uint8Array {
  return encoder.encode(batchBody(tpl, `cpu-${batch}`, batch, SIZE));
}

/** An OTLP/JSON request of SIZE tool spans: 40 % failing (HTTP statuses, exception types, messages), new ids each time. */
export function otlpBody(batch: number): Uint8Array {
  const spans = Array.from({ length: SIZE }, (_, k) => {
    const n = batch * SIZE + k;
    const failing = k % 5 < 2;
    const start = T0 + n;
    return {
      traceId: (batch + 1).toString(16).padStart(32, "0"), spanId: (n + 1).toString(16).padStart(16, "0"), name: `execute_tool tool_${k % 7}`, kind: 1,
      startTimeUnixNano: `${start}000000`, endTimeUnixNano: `${start + 5}000000`,
      attributes: [
        str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", `tool_${k % 7}`), str("gen_ai.tool.call.id", `c${n}`),
        ...(failing ? [str("error.type", ["BookingMissingError", "SeatTakenError"][k % 2]!), int("http.response.status_code", [429, 503, 404][k % 3]!)] : []),
      ],
      ...(failing ? { status: { code: 2, message: `booking bk_${n} for 'Ann' not found` } } : {}),
    };
  });
  return encoder.encode(JSON.stringify({ resourceSpans: [{ resource: { attributes: [str("service.name", "bench")] }, scopeSpans: [{ scope: { name: "bench" }, spans }] }] }));
}

interface Case {
  name: string;
  format: IngestFormat<unknown>;
  body: (batch: number) => Uint8Array;
}

/** The raw baseline's writer and, on PostgreSQL, a store on its database (for its backends' CPU). */
interface Raw {
  writer: RawWriter;
  store: Store | null;
}

export const nativeTpl = JSON.stringify({ resource: RESOURCE, records: records(SIZE).map((r) => ({ type: "tool_call_span", ...r })) });
const ALL_CASES: Case[] = [
  { name: "native", format: nativeFormat as IngestFormat<unknown>, body: (b) => nativeBody(nativeTpl, b) },
  { name: "otlp", format: otlpFormat as IngestFormat<unknown>, body: otlpBody },
  { name: "raw", format: nativeFormat as IngestFormat<unknown>, body: () => new Uint8Array(0) },
];
// BENCH_FORMATS=native narrows the run (for a profile of one format).
const CASES = ALL_CASES.filter((c) => (process.env.BENCH_FORMATS ?? "native,otlp,raw").split(",").includes(c.name));

/** The CPU the backends of the store's database used so far (PostgreSQL); 0 for SQLite. */
async function databaseCpu(store: Store): Promise<number> {
  if (store.dialect !== "postgres") return 0;
  const rows = await store.all<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()");
  return rows.reduce((s, r) => s + procCpuSeconds(Number(r.pid)), 0);
}

let sequence = 0;
// The raw writer's batches are numbered apart: `sequence` numbers the requests, whose ids and times it sets.
let rawBatch = 0;

/**
 * WRITERS writers for SECONDS; µs of Node and database CPU per record. The request bodies are made
 * before the CPU is read (`expected` of them; more only if the round outruns it), so the client's
 * JSON encoding is not counted as ingest.
 */
async function measure(store: Store, raw: Raw | null, c: Case, seconds: number, expected: number, metered = false): Promise<Measurement> {
  const bodies = Array.from({ length: expected }, () => c.body(sequence++));
  let next = 0;
  const dbStore = c.name === "raw" ? raw!.store : store;
  const db0 = dbStore ? await databaseCpu(dbStore) : 0;
  const stop = metered && store.dialect === "sqlite" ? meterSqlite(store.sqlite) : null;
  const threads0 = otherThreadsCpuUs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let stored = 0;
  const writer = async () => {
    while (performance.now() < until) {
      const body = bodies[next++] ?? c.body(sequence++);
      // The ingest call stays inline here: behind one more async layer the SQLite rounds measured ~1.6x the CPU.
      if (c.name === "raw") {
        // Not `stored += await …`: that reads `stored` before the await, and two writers overwrite each other's count.
        const n = await raw!.writer.write(rawBatch++);
        stored += n;
      } else {
        const r = await ingestEnvelope(store, "p", c.format, c.format.parse(body, "application/json"));
        if (r.rejected.length > 0) throw new Error(`${c.name}: ${JSON.stringify(r.rejected[0])}`);
        stored += r.accepted;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  const cpu = process.cpuUsage(cpu0);
  const threads = otherThreadsCpuUs() - threads0;
  const split = stop?.() ?? null;
  const elapsed = (performance.now() - t0) / 1000;
  const db = (dbStore ? await databaseCpu(dbStore) : 0) - db0;
  const node = cpu.user + cpu.system;
  return {
    node: node / stored,
    db: (db * 1e6) / stored,
    perSec: stored / elapsed,
    split: split && {
      sqlite: split.sqliteUs / stored,
      javascript: split.javascriptUs / stored,
      threads: threads / stored,
      overhead: split.overheadUs / stored,
      calls: split.calls / stored,
      total: node / stored,
    },
  };
}

/** µs per record of a round; `split` only for a metered SQLite round (bench/sqlite-split.ts). */
interface Measurement {
  node: number;
  db: number;
  perSec: number;
  split: { sqlite: number; javascript: number; threads: number; overhead: number; calls: number; total: number } | null;
}

const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const cell = (xs: number[]) => `${median(xs).toFixed(1)} (${range(xs)})`;

/**
 * SQLite's Node CPU split, from the metered rounds: inside better-sqlite3's calls (the engine),
 * JavaScript (everything else on the main thread, GC included), other threads (the checkpoint
 * worker, V8's helpers), with the meter's own cost measured and taken out.
 */
function printSplits(out: Map<string, { splits: NonNullable<Measurement["split"]>[] }>): void {
  console.log("SQLite's Node CPU split (metered rounds, µs per record): inside better-sqlite3 | JavaScript (main thread) | other threads (checkpointer, V8 helpers); the meter's cost, measured and removed, and the calls metered");
  for (const [name, { splits }] of out) {
    const of = (k: keyof (typeof splits)[number]) => splits.map((s) => s[k]);
    console.log(
      `sqlite   ${name.padEnd(6)} inside SQLite ${cell(of("sqlite"))} | JavaScript ${cell(of("javascript"))} | other threads ${cell(of("threads"))}; ` +
        `metered Node ${median(of("total")).toFixed(1)} of which meter ${median(of("overhead")).toFixed(1)}, ${median(of("calls")).toFixed(1)} calls`,
    );
  }
}

/** Prints CPU per 1,000 records per format on the given engine (a fresh database per run). */
export async function cpuSection(engines: readonly ("sqlite" | "postgres")[], pgDatabase: (() => Promise<string>) | null): Promise<void> {
  console.log(`bench:ingest --cpu — in-process ingest of ${SIZE}-record requests, ${WRITERS} writers, ${ROUNDS} interleaved rounds of ${SECONDS}s, Node ${process.version}`);
  console.log("CPU ms per 1,000 records (= µs per record): median over rounds (range)");
  for (const engine of engines) {
    const target = engine === "postgres" ? await pgDatabase!() : tmpFile("cpu.db");
    const store = engine === "postgres" ? await openPgStore(target, { poolMax: WRITERS }) : await openStore(target, SERVER_SQLITE);
    let raw: Raw | null = null;
    try {
      await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
      if (CASES.some((c) => c.name === "raw")) {
        const rawTarget = engine === "postgres" ? await pgDatabase!() : tmpFile("cpu-raw.db");
        raw = engine === "postgres" ? { writer: await rawPgWriter(rawTarget, SIZE, WRITERS), store: await openPgStore(rawTarget, { poolMax: 1 }) } : { writer: await rawSqliteWriter(rawTarget, SIZE), store: null };
      }
      const expected = new Map(CASES.map((c) => [c.name, 0]));
      for (const c of CASES) expected.set(c.name, Math.ceil(((await measure(store, raw, c, 1, 50)).perSec * SECONDS * 1.5) / SIZE));
      const out = new Map(CASES.map((c) => [c.name, { node: [] as number[], db: [] as number[], rate: [] as number[], splits: [] as NonNullable<Measurement["split"]>[] }]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [...CASES].reverse() : CASES;
        for (const c of order) {
          const o = out.get(c.name)!;
          const m = await measure(store, raw, c, SECONDS, expected.get(c.name)!);
          o.node.push(m.node);
          o.db.push(m.db);
          o.rate.push(m.perSec);
          // SQLite: a metered round after each plain one, for the engine's share of Node's CPU.
          if (engine === "sqlite") o.splits.push((await measure(store, raw, c, SECONDS, expected.get(c.name)!, true)).split!);
        }
      }
      for (const [name, o] of out) {
        const dbText = engine === "postgres" ? `  database ${median(o.db).toFixed(0)} (${range(o.db)})` : "  (SQLite runs in Node)";
        console.log(`${engine.padEnd(8)} ${name.padEnd(6)} Node ${median(o.node).toFixed(1)} (${range(o.node)})${dbText}  ${median(o.rate).toFixed(0)} records/s`);
      }
      if (engine === "sqlite") printSplits(out);
    } finally {
      await store.close();
      await raw?.writer.close();
      await raw?.store?.close();
    }
  }
}
