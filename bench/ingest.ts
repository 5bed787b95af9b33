// `npm run bench:ingest` — POST /api/v1/ingest (real `next start`) for batches of 1, 100 and 500
// records against a raw baseline (bench/ingest-baseline.ts: the same span, failure-fact and rollup
// rows in one transaction per batch with the ingest's own statements), the two taking turns round by
// round with the same number of writers; prints the median ratio with every round's, and CPU ms per
// 1,000 records of the server and of the baseline. Then p99 latency of 100-record batches paced at
// 1,000 records/s. Needs a build (`npm run build`). BENCH_SIZES, BENCH_ROUNDS, BENCH_SECONDS.
//
// `npm run bench:ingest -- --db postgres [--url postgres://…] [--store-only]` — the same on both
// engines in one run: first at the store level (writeRows against the baseline), then over HTTP unless
// --store-only; PostgreSQL's CPU (its backends', from /proc) is printed apart from Node's. The URL (or
// FAULTLINE_BENCH_PG_URL) names a server where the bench may create and drop scratch databases.
//
// `npm run bench:ingest -- --search [--db postgres --url …]` — what keeping the full-text index costs
// at ingest (bench/ingest-search.ts).
//
// `npm run bench:ingest -- --issues [--db postgres --url …]` — what the issue hook costs at ingest
// (bench/ingest-issues.ts): the bench rows against the same rows whose failures open no issue.
//
// `npm run bench:ingest -- --cpu [--db postgres --url …]` — in-process CPU per record per format and
// engine (bench/ingest-cpu.ts). docs/ingest-performance.md has the figures.
//
// `npm run bench:ingest -- --classify` — classification at ingest: 100 rules against none (bench/classification.ts).
//
// `npm run bench:ingest -- --otlp-told` — reading told texts from OTLP model calls: requests with their
// prompts against the same without (bench/otlp-told.ts).
// `npm run bench:ingest -- --told [--db postgres --url …]` — what classifying the errors surfaced to
// the model costs at ingest (docs/after-told.md): writeRows with 2 concurrent writers on batches whose
// failing calls end in surfaced errors (told texts, argument hashes, runs arriving in two pieces,
// each run's end in the second), against the very same rows whose errors are not surfaced (the run
// failed: no told text, nothing to classify). Same rows, same rollups; the ratio is the told work.
import { parseArgs } from "node:util";
import pg from "pg";
import { openStore, openPgStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import { startServer } from "../test/helpers/server";
import { CLIENTS, RESOURCE, ROUNDS, batchBody, timeShift, SECONDS, SIZES, WARMUP_SECONDS, fmt, median, pct, processCpu, procCpuSeconds, records, rowBatch, runRound, spread, tmpFile, type Measured, type RoundResult } from "./ingest-common";
import { rawPgWriter, rawSqliteWriter, SERVER_SQLITE } from "./ingest-baseline";
import { classificationBench } from "./classification";
import { issuesSection } from "./ingest-issues";
import { searchSection } from "./ingest-search";
import { toldSection } from "./ingest-told";
import { otlpToldBench } from "./otlp-told";
import { cpuSection } from "./ingest-cpu";

function template(size: number): string {
  return JSON.stringify({ resource: RESOURCE, records: records(size).map((r) => ({ type: "tool_call_span", ...r })) });
}

/** The n-th request of `size` records (new ids, times moved on); the records it stored. */
async function post(url: string, key: string, tpl: string, n: number, size: number): Promise<number> {
  const body = batchBody(tpl, `http-${size}-${n}`, n, size);
  const send = () => fetch(`${url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
  // A keep-alive connection the server closed as the request left is not an answer: undici retries
  // only idempotent methods, so the bench sends once more (ingest is idempotent: ids are the batch's).
  const res = await send().catch(() => send());
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}`);
  return size;
}

async function paced(url: string, key: string, size: number, recordsPerSec: number) {
  const tpl = template(size);
  const interval = (1000 * size) / recordsPerSec;
  const latencies: number[] = [];
  const inflight: Promise<void>[] = [];
  const n = Math.round((SECONDS * 1000) / interval);
  for (let i = 0; i < n; i++) {
    const body = batchBody(tpl, `paced-${i}`, i, size);
    const t0 = performance.now();
    inflight.push(
      fetch(`${url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body })
        .then((r) => r.arrayBuffer())
        .then(() => void latencies.push(performance.now() - t0)),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + interval - performance.now())));
  }
  await Promise.all(inflight);
  latencies.sort((a, b) => a - b);
  return { p50: pct(latencies, 50), p99: pct(latencies, 99), max: latencies[latencies.length - 1] ?? NaN, n: latencies.length };
}


/** Events/s through writeRows (rows, rollups, one transaction per batch) with CLIENTS concurrent writers. */
async function storeStep(store: Store, size: number): Promise<(n: number) => Promise<number>> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  const rows = records(size);
  return async (n) => {
    const { stored } = await writeRows(store, "p", rowBatch(rows, `store-${size}-${n}`, timeShift(n, size)));
    if (stored !== size) throw new Error(`stored ${stored} of ${size}`);
    return size;
  };
}

/** Scratch databases on the PostgreSQL server, dropped at the end. */
function scratchDatabases(adminUrl: string) {
  const made: string[] = [];
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  return {
    /** A new database with every migration applied. */
    async create(): Promise<string> {
      const name = `faultline_bench_${process.pid}_${made.length}`;
      await admin((c) => c.query(`CREATE DATABASE ${name}`));
      made.push(name);
      const u = new URL(adminUrl);
      u.pathname = `/${name}`;
      await (await openPgStore(u.toString(), { poolMax: 1 })).close();
      return u.toString();
    },
    async dropAll(): Promise<void> {
      await admin(async (c) => {
        for (const name of made) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

/** The CPU seconds used so far by the backends of one PostgreSQL database (read from /proc). */
function databaseCpu(admin: pg.Pool, url: string): () => Promise<number> {
  const name = new URL(url).pathname.slice(1);
  return async () => {
    const { rows } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [name]);
    return rows.reduce((sum, r) => sum + procCpuSeconds(r.pid), 0);
  };
}

/** Per round: both cases in turns (order alternating), each with CLIENTS writers; medians and ranges. */
async function interleaved(label: string, size: number, baseline: Measured, measured: Measured, baselineName: string) {
  const ratios: number[] = [];
  const rates = { a: [] as number[], b: [] as number[] };
  const cpu = { aNode: [] as number[], aDb: [] as number[], bNode: [] as number[], bDb: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [measured, baseline] : [baseline, measured];
    const out = new Map<Measured, RoundResult>();
    for (const m of order) out.set(m, await runRound(m));
    const a = out.get(baseline)!;
    const b = out.get(measured)!;
    rates.a.push(a.perSec);
    rates.b.push(b.perSec);
    ratios.push(b.perSec / a.perSec);
    cpu.aNode.push(a.nodeUs);
    cpu.aDb.push(a.dbUs);
    cpu.bNode.push(b.nodeUs);
    cpu.bDb.push(b.dbUs);
  }
  const db = (xs: number[]) => (measured.dbCpu ? `, database ${spread(xs, 0)}` : "");
  console.log(
    `${label} batch=${String(size).padStart(3)}: ${fmt(median(rates.b)).padStart(7)} events/s vs ${baselineName} ${fmt(median(rates.a)).padStart(7)} rows/s` +
      `  ratio median ${median(ratios).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(" ")})`,
  );
  console.log(`${" ".repeat(label.length)}   CPU ms per 1,000 records: ${measured.name} Node ${spread(cpu.bNode, 0)}${db(cpu.bDb)}; ${baselineName} Node ${spread(cpu.aNode, 0)}${db(cpu.aDb)}`);
}

async function httpSection(dialect: "sqlite" | "postgres", rawTarget: string, admin: pg.Pool | null, sharedDatabaseUrl?: string) {
  const server = await startServer(sharedDatabaseUrl ? { sharedDatabaseUrl } : { dialect });
  const serverDb = admin && sharedDatabaseUrl ? databaseCpu(admin, sharedDatabaseUrl) : undefined;
  const rawDb = admin && dialect === "postgres" ? databaseCpu(admin, rawTarget) : undefined;
  try {
    for (const size of SIZES) {
      const raw = dialect === "postgres" ? await rawPgWriter(rawTarget, size, CLIENTS) : await rawSqliteWriter(rawTarget.replace(/\.db$/, `-${size}.db`), size);
      let n = 0;
      let h = 0;
      const tpl = template(size);
      try {
        await interleaved(
          `${dialect.padEnd(8)} HTTP`,
          size,
          { name: "raw", step: () => raw.write(n++), nodeCpu: processCpu, dbCpu: rawDb },
          { name: "server", step: () => post(server.url, server.key, tpl, h++, size), nodeCpu: () => procCpuSeconds(server.pid ?? 0), dbCpu: serverDb },
          "raw",
        );
      } finally {
        await raw.close();
      }
    }
    const p = await paced(server.url, server.key, 100, 1000);
    console.log(`${dialect.padEnd(8)} paced 100-record batches at 1,000 records/s (${p.n} requests): p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  max ${p.max.toFixed(1)} ms`);
  } finally {
    await server.stop();
  }
}

async function sqliteOnly() {
  console.log(`bench:ingest — ${ROUNDS} interleaved rounds of ${SECONDS}s (after ${WARMUP_SECONDS}s warm-up) per case, ${CLIENTS} writers each, Node ${process.version}`);
  console.log(BASELINE_NOTE);
  await httpSection("sqlite", tmpFile("raw.db"), null);
}

const BASELINE_NOTE =
  "raw = the same span, failure-fact and rollup rows in one transaction per batch with the ingest's statements (bench/ingest-baseline.ts), same writers; CPU: median (range) over rounds";

async function bothEngines(adminUrl: string, storeOnly: boolean) {
  console.log(`bench:ingest --db postgres — ${ROUNDS} interleaved rounds of ${SECONDS}s (after ${WARMUP_SECONDS}s warm-up) per case, ${CLIENTS} writers each, Node ${process.version}`);
  console.log(BASELINE_NOTE);
  const dbs = scratchDatabases(adminUrl);
  const admin = new pg.Pool({ connectionString: adminUrl, max: 1 });
  try {
    console.log("store level: writeRows (plan + rows + rollups + issues, one transaction per batch) vs raw");
    for (const dialect of ["sqlite", "postgres"] as const) {
      const storeUrl = dialect === "postgres" ? await dbs.create() : tmpFile("store.db");
      const store = dialect === "postgres" ? await openPgStore(storeUrl, { poolMax: CLIENTS }) : await openStore(storeUrl, SERVER_SQLITE);
      try {
        for (const size of SIZES) {
          const rawUrl = dialect === "postgres" ? await dbs.create() : tmpFile(`raw-${size}.db`);
          const raw = dialect === "postgres" ? await rawPgWriter(rawUrl, size, CLIENTS) : await rawSqliteWriter(rawUrl, size);
          const step = await storeStep(store, size);
          let n = 0;
          let w = 0;
          try {
            await interleaved(
              `${dialect.padEnd(8)} writeRows`,
              size,
              { name: "raw", step: () => raw.write(n++), nodeCpu: processCpu, dbCpu: dialect === "postgres" ? databaseCpu(admin, rawUrl) : undefined },
              { name: "writeRows", step: () => step(w++), nodeCpu: processCpu, dbCpu: dialect === "postgres" ? databaseCpu(admin, storeUrl) : undefined },
              "raw",
            );
          } finally {
            await raw.close();
          }
        }
      } finally {
        await store.close();
      }
    }
    if (storeOnly) return;
    console.log("HTTP: POST /api/v1/ingest on a built server vs raw (server CPU: the next start process)");
    await httpSection("sqlite", tmpFile("raw.db"), null);
    await httpSection("postgres", await dbs.create(), admin, await dbs.create());
  } finally {
    await admin.end();
    await dbs.dropAll();
  }
}

async function main() {
  const { values } = parseArgs({
    options: { db: { type: "string", default: "sqlite" }, url: { type: "string" }, "store-only": { type: "boolean", default: false }, told: { type: "boolean", default: false }, issues: { type: "boolean", default: false }, search: { type: "boolean", default: false }, cpu: { type: "boolean", default: false }, classify: { type: "boolean", default: false }, "otlp-told": { type: "boolean", default: false }, "pg-only": { type: "boolean", default: false } },
  });
  if (values.classify) return classificationBench();
  if (values["otlp-told"]) return otlpToldBench();
  if (values.told && values.db === "sqlite") return toldSection(["sqlite"], null);
  if (values.issues && values.db === "sqlite") return issuesSection(["sqlite"], null);
  if (values.search && values.db === "sqlite") return searchSection(["sqlite"], null);
  if (values.cpu && values.db === "sqlite") return cpuSection(["sqlite"], null);
  if (values.db === "sqlite") return sqliteOnly();
  if (values.db !== "postgres") throw new Error(`--db ${values.db}: expected sqlite or postgres`);
  const url = values.url ?? process.env.FAULTLINE_BENCH_PG_URL;
  if (!url) throw new Error("--db postgres needs --url postgres://… or FAULTLINE_BENCH_PG_URL (a server where scratch databases may be created)");
  if (values.told || values.issues || values.search || values.cpu) {
    const dbs = scratchDatabases(url);
    try {
      const section = values.search ? searchSection : values.told ? toldSection : values.issues ? issuesSection : cpuSection;
      return await section(values["pg-only"] ? ["postgres"] : ["sqlite", "postgres"], () => dbs.create());
    } finally {
      await dbs.dropAll();
    }
  }
  await bothEngines(url, values["store-only"]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
