// `npm run bench:ingest` — events/s through POST /api/v1/ingest (real `next start`, 2 concurrent
// clients) for batches of 1, 100 and 500 records, next to the raw better-sqlite3 insert rate of the
// same rows into the same table in the same run; then p99 latency of 100-record batches paced at
// 1,000 records/s. Needs a build (`npm run build`).
//
// `npm run bench:ingest -- --db postgres [--url postgres://…] [--store-only]` — the same comparison
// on both engines in one run: first at the store level (writeRows, 2 concurrent writers, on a
// PostgreSQL pool and on a SQLite file) next to a raw multi-row insert of the same rows into the same
// indexed table on each engine (`pg` multi-row VALUES; better-sqlite3 prepared inserts), then over
// HTTP on each engine unless --store-only. The URL (or FAULTLINE_BENCH_PG_URL) names a server where
// the bench may create and drop scratch databases.
//
// `npm run bench:ingest -- --classify` — classification at ingest: 100 rules against none (bench/classification.ts).
//
// `npm run bench:ingest -- --otlp-told` — reading told texts from OTLP model calls: requests with their
// prompts against the same without (bench/otlp-told.ts).
//
// `npm run bench:ingest -- --search [--db postgres --url …]` — what keeping the full-text index costs
// at ingest (bench/ingest-search.ts).
//
// `npm run bench:ingest -- --told [--db postgres --url …]` — what classifying the errors surfaced to
// the model costs at ingest (docs/after-told.md): writeRows with 2 concurrent writers on batches whose
// failing calls end in surfaced errors (told texts, argument hashes, runs arriving in two pieces,
// each run's end in the second), against the very same rows whose errors are not surfaced (the run
// failed: no told text, nothing to classify). Same rows, same rollups; the ratio is the told work.
//
// `npm run bench:ingest -- --issues [--db postgres --url …]` — what the issue hook costs at ingest
// (bench/ingest-issues.ts): the bench rows against the same rows whose failures open no issue.
import { parseArgs } from "node:util";
import pg from "pg";
import { openStore, openPgStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import { startServer } from "../test/helpers/server";
import { CLIENTS, RESOURCE, SECONDS, SIZES, WARMUP_SECONDS, closedLoopOf, fmt, pct, records, rowBatch, sub, tmpFile, type BenchRecord } from "./ingest-common";
import { classificationBench } from "./classification";
import { issuesSection } from "./ingest-issues";
import { searchSection } from "./ingest-search";
import { toldSection } from "./ingest-told";
import { otlpToldBench } from "./otlp-told";

function template(size: number): string {
  return JSON.stringify({ resource: RESOURCE, records: records(size).map((r) => ({ type: "tool_call_span", ...r })) });
}

async function closedLoop(url: string, key: string, size: number, clients: number) {
  const tpl = template(size);
  let counter = 0;
  let errors = 0;
  const r = await closedLoopOf(clients, async () => {
    const body = tpl.replaceAll("@@", `${size}-${counter++}`);
    const res = await fetch(`${url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
    await res.arrayBuffer();
    if (res.status === 200) return size;
    errors++;
    return 0;
  });
  return { eventsPerSec: r.perSec, reqPerSec: r.latencies.length / SECONDS, p50: pct(r.latencies, 50), p99: pct(r.latencies, 99), errors };
}

async function paced(url: string, key: string, size: number, recordsPerSec: number) {
  const tpl = template(size);
  const interval = (1000 * size) / recordsPerSec;
  const latencies: number[] = [];
  const inflight: Promise<void>[] = [];
  const n = Math.round((SECONDS * 1000) / interval);
  for (let i = 0; i < n; i++) {
    const body = tpl.replaceAll("@@", `paced-${i}`);
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


// The raw inserts' columns: the varying fields of a record, then constants (as the ingest would store them).
const RAW_COLUMNS = `project_id, span_id, trace_id, run_id, call_id, tool, tool_version, release, service, sdk_name, sdk_version, attempt, started_at,
  ended_at, outcome, code, error_class, retryable, retry_after_ms, backoff_ms, decision, source, received_at`;
const rawValues = (r: BenchRecord, batch: string) => [
  sub(r.id, batch), r.trace_id, sub(r.run_id, batch), sub(r.call_id, batch), r.tool, r.tool_version, r.attempt, r.started_at, r.ended_at, r.outcome,
  r.code, r.error_class, r.retryable === null ? null : r.retryable ? 1 : 0, r.retry_after_ms, r.backoff_ms, r.decision,
];

// The machine's limit on SQLite: the same span rows through a prepared statement into the same
// (migrated, indexed) table, `size` rows per transaction, no HTTP, no validation, no rollups.
async function rawSqliteRate(size: number): Promise<number> {
  const store = await openStore(tmpFile("raw.db"));
  if (store.dialect !== "sqlite") throw new Error("expected a SQLite store");
  store.sqlite.prepare("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0)").run();
  const insert = store.sqlite.prepare(`INSERT INTO tool_call_spans (${RAW_COLUMNS}) VALUES ('p', ?, ?, ?, ?, ?, ?, 'r', 's', 'b', '1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'native', 0)
    ON CONFLICT DO NOTHING`);
  const rows = records(size);
  const tx = store.sqlite.transaction((batch: string) => {
    for (const r of rows) insert.run(rawValues(r, batch));
  });
  let batch = 0;
  const r = await closedLoopOf(1, async () => {
    tx(`raw-${batch++}`);
    return rows.length;
  });
  await store.close();
  return r.perSec;
}

// The same on PostgreSQL: one multi-row INSERT … VALUES per batch (its own transaction) into the
// same migrated, indexed, partitioned table, from as many connections as writeRows gets.
async function rawPgRate(url: string, size: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
  await pool.query("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  const rows = records(size);
  const width = rawValues(rows[0]!, "").length;
  const tuples = rows.map((_, i) => {
    const p = Array.from({ length: width }, (_, c) => `$${i * width + c + 1}`);
    return `('p', ${p.slice(0, 6).join(", ")}, 'r', 's', 'b', '1', ${p.slice(6).join(", ")}, 'native', 0)`;
  });
  const sql = `INSERT INTO tool_call_spans (${RAW_COLUMNS}) VALUES ${tuples.join(", ")} ON CONFLICT DO NOTHING`;
  let batch = 0;
  const r = await closedLoopOf(CLIENTS, async () => {
    const b = `raw-${size}-${batch++}`;
    await pool.query(sql, rows.flatMap((row) => rawValues(row, b)));
    return rows.length;
  });
  await pool.end();
  return r.perSec;
}

/** Events/s through writeRows (rows, rollups, one transaction per batch) with CLIENTS concurrent writers. */
async function storeRate(store: Store, size: number): Promise<{ eventsPerSec: number; p50: number; p99: number }> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  const rows = records(size);
  let batch = 0;
  const r = await closedLoopOf(CLIENTS, async () => {
    const { stored } = await writeRows(store, "p", rowBatch(rows, `store-${size}-${batch++}`));
    if (stored !== size) throw new Error(`stored ${stored} of ${size}`);
    return size;
  });
  return { eventsPerSec: r.perSec, p50: pct(r.latencies, 50), p99: pct(r.latencies, 99) };
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

async function httpSection(dialect: "sqlite" | "postgres", raw: number, sharedDatabaseUrl?: string) {
  const server = await startServer(sharedDatabaseUrl ? { sharedDatabaseUrl } : { dialect });
  try {
    for (const size of SIZES) {
      const r = await closedLoop(server.url, server.key, size, CLIENTS);
      console.log(
        `${dialect.padEnd(8)} HTTP batch=${String(size).padStart(3)}: ${fmt(r.eventsPerSec).padStart(7)} events/s  ${fmt(r.reqPerSec).padStart(5)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  non-200: ${r.errors}  ratio to raw: ${(r.eventsPerSec / raw).toFixed(2)}`,
      );
    }
    const p = await paced(server.url, server.key, 100, 1000);
    console.log(`${dialect.padEnd(8)} paced 100-record batches at 1,000 records/s (${p.n} requests): p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  max ${p.max.toFixed(1)} ms`);
  } finally {
    await server.stop();
  }
}

async function sqliteOnly() {
  console.log(`bench:ingest — ${SECONDS}s per case after ${WARMUP_SECONDS}s warm-up, ${CLIENTS} clients, Node ${process.version}`);
  const raw = await rawSqliteRate(500);
  console.log(`raw better-sqlite3 prepared inserts, same rows and indexes, 500/tx: ${fmt(raw)} rows/s`);
  await httpSection("sqlite", raw);
}

async function bothEngines(adminUrl: string, storeOnly: boolean) {
  console.log(`bench:ingest --db postgres — ${SECONDS}s per case after ${WARMUP_SECONDS}s warm-up, ${CLIENTS} concurrent writers, Node ${process.version}`);
  const dbs = scratchDatabases(adminUrl);
  try {
    console.log("store level: writeRows (rows + rollups, one transaction per batch) vs a raw multi-row insert of the same rows into the same indexed table");
    const raw500: { sqlite: number; postgres: number } = { sqlite: 0, postgres: 0 };
    for (const dialect of ["sqlite", "postgres"] as const) {
      const rawUrl = dialect === "postgres" ? await dbs.create() : "";
      const storeUrl = dialect === "postgres" ? await dbs.create() : tmpFile("store.db");
      const store = dialect === "postgres" ? await openPgStore(storeUrl, { poolMax: CLIENTS }) : await openStore(storeUrl);
      try {
        for (const size of SIZES) {
          const raw = dialect === "postgres" ? await rawPgRate(rawUrl, size) : await rawSqliteRate(size);
          if (size === 500) raw500[dialect] = raw;
          const r = await storeRate(store, size);
          console.log(
            `${dialect.padEnd(8)} batch=${String(size).padStart(3)}: writeRows ${fmt(r.eventsPerSec).padStart(7)} events/s (p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms)  raw ${fmt(raw).padStart(7)} rows/s  ratio ${(r.eventsPerSec / raw).toFixed(2)}`,
          );
        }
      } finally {
        await store.close();
      }
    }
    if (storeOnly) return;
    console.log("HTTP: POST /api/v1/ingest on a built server (ratio to the raw 500-row rate of its engine)");
    await httpSection("sqlite", raw500.sqlite || (await rawSqliteRate(500)));
    const httpUrl = await dbs.create();
    await httpSection("postgres", raw500.postgres || (await rawPgRate(await dbs.create(), 500)), httpUrl);
  } finally {
    await dbs.dropAll();
  }
}

async function main() {
  const { values } = parseArgs({
    options: { db: { type: "string", default: "sqlite" }, url: { type: "string" }, "store-only": { type: "boolean", default: false }, told: { type: "boolean", default: false }, issues: { type: "boolean", default: false }, search: { type: "boolean", default: false }, classify: { type: "boolean", default: false }, "otlp-told": { type: "boolean", default: false } },
  });
  if (values.classify) return classificationBench();
  if (values["otlp-told"]) return otlpToldBench();
  if (values.told && values.db === "sqlite") return toldSection(["sqlite"], null);
  if (values.issues && values.db === "sqlite") return issuesSection(["sqlite"], null);
  if (values.search && values.db === "sqlite") return searchSection(["sqlite"], null);
  if (values.db === "sqlite") return sqliteOnly();
  if (values.db !== "postgres") throw new Error(`--db ${values.db}: expected sqlite or postgres`);
  const url = values.url ?? process.env.FAULTLINE_BENCH_PG_URL;
  if (!url) throw new Error("--db postgres needs --url postgres://… or FAULTLINE_BENCH_PG_URL (a server where scratch databases may be created)");
  if (values.told || values.issues || values.search) {
    const dbs = scratchDatabases(url);
    try {
      const section = values.search ? searchSection : values.told ? toldSection : issuesSection;
      return await section(["sqlite", "postgres"], () => dbs.create());
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
