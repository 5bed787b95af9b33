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
// `npm run bench:ingest -- --told [--db postgres --url …]` — what classifying the errors surfaced to
// the model costs at ingest (docs/after-told.md): writeRows with 2 concurrent writers on batches whose
// failing calls end in surfaced errors (told texts, argument hashes, runs arriving in two pieces,
// each run's end in the second), against the very same rows whose errors are not surfaced (the run
// failed: no told text, nothing to classify). Same rows, same rollups; the ratio is the told work.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { openStore, openPgStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import type { RowBatch, RunRow, SpanRow, ToolErrorRow } from "../lib/ingest/rows";
import { startServer } from "../test/helpers/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_SECONDS = 1.5;
const CLIENTS = 2;
const SIZES = (process.env.BENCH_SIZES ?? "1,100,500").split(",").map(Number);
const TOOLS = ["cancel_booking", "search_flights", "lookup_customer", "refund_payment", "send_email"];
const OUTCOMES = ["ok", "ok", "ok", "failed", "declined", "refused", "timed_out"];

interface BenchRecord {
  id: string;
  trace_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  tool_version: string;
  attempt: number;
  started_at: number;
  ended_at: number;
  outcome: string;
  code: string | null;
  error_class: string | null;
  retryable: boolean | null;
  retry_after_ms: number | null;
  backoff_ms: number | null;
  decision: string | null;
}

// Records whose ids carry a placeholder, so each request is new data (duplicates are cheaper).
function records(size: number): BenchRecord[] {
  const now = Date.now() - 3_600_000;
  return Array.from({ length: size }, (_, i) => {
    const outcome = OUTCOMES[i % OUTCOMES.length]!;
    const failed = outcome !== "ok";
    return {
      id: `span-@@-${i}`,
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      run_id: `run-@@-${Math.floor(i / 10)}`,
      call_id: `call-@@-${Math.floor(i / 2)}`,
      tool: TOOLS[i % TOOLS.length]!,
      tool_version: "1.4.0",
      attempt: (i % 2) + 1,
      started_at: now + i * 10,
      ended_at: now + i * 10 + 35,
      outcome,
      code: failed ? `code_${i % 12}` : null,
      error_class: failed ? "ToolFailure" : null,
      retryable: failed ? i % 3 === 0 : null,
      retry_after_ms: failed && i % 4 === 0 ? 2000 : null,
      backoff_ms: failed ? 1500 + (i % 7) * 100 : null,
      decision: failed ? "retried" : null,
    };
  });
}

const RESOURCE = { service: "bench-agent", release: "2026.12.0", sdk: { name: "bench", version: "1" } };

function template(size: number): string {
  return JSON.stringify({ resource: RESOURCE, records: records(size).map((r) => ({ type: "tool_call_span", ...r })) });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const sub = (s: string, batch: string) => s.replace("@@", batch);

/** Runs `clients` loops of `step` for the warm-up and then SECONDS; returns what the measured steps counted, per second. */
async function closedLoopOf(clients: number, step: () => Promise<number>): Promise<{ perSec: number; latencies: number[] }> {
  let counted = 0;
  const latencies: number[] = [];
  // Clock checks, not a timer: a synchronous step (SQLite) never yields to the timer queue.
  const measureFrom = performance.now() + WARMUP_SECONDS * 1000;
  const stopAt = measureFrom + SECONDS * 1000;
  const client = async () => {
    while (performance.now() < stopAt) {
      const t0 = performance.now();
      const n = await step();
      if (t0 < measureFrom) continue;
      latencies.push(performance.now() - t0);
      counted += n;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  latencies.sort((a, b) => a - b);
  return { perSec: counted / SECONDS, latencies };
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

const tmpFile = (name: string) => path.join(mkdtempSync(path.join(tmpdir(), "faultline-bench-")), name);

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

/** The bench's rows as the ingest normalises them (what the native format makes of `records`). */
function rowBatch(rows: BenchRecord[], batch: string): RowBatch {
  const spans = rows.map((r, index): { index: number; row: SpanRow } => ({
    index,
    row: {
      spanId: sub(r.id, batch), traceId: r.trace_id, parentSpanId: null, runId: sub(r.run_id, batch), callId: sub(r.call_id, batch), tool: r.tool,
      toolVersion: r.tool_version, release: RESOURCE.release, service: RESOURCE.service, environment: null, sdkName: RESOURCE.sdk.name,
      sdkVersion: RESOURCE.sdk.version, attempt: r.attempt, startedAt: r.started_at, startedSubNs: null, endedAt: r.ended_at, outcome: r.outcome, code: r.code,
      errorClass: r.error_class, retryable: r.retryable, retryAfterMs: r.retry_after_ms, backoffMs: r.backoff_ms, decision: r.decision,
      permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
    },
  }));
  return { spans, toolErrors: [], runs: [] };
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

/**
 * The told bench's batch `n`: the bench rows with argument hashes, one final error per failing span
 * (surfaced with a told text, or failing the run with none), runs shared by batches 2k and 2k+1 (two
 * writers then ingest pieces of one run at once), whose ends come in the second batch.
 */
function toldBatch(rows: BenchRecord[], n: number, surfaced: boolean): RowBatch {
  const pair = `told-${surfaced ? "s" : "f"}-${n >> 1}`;
  const part = `${pair}-${n & 1}`;
  const runOf = (r: BenchRecord) => sub(r.run_id, pair);
  const base = rowBatch(rows, part);
  for (const { row } of base.spans) {
    row.runId = row.runId.replace(part, pair);
    row.argsHash = (row.callId.length % 2 ? "a" : "b").repeat(16);
  }
  const toolErrors = rows.flatMap((r, i): { index: number; row: ToolErrorRow }[] =>
    r.outcome === "ok"
      ? []
      : [{
          index: rows.length + i,
          row: {
            eventId: `e-${sub(r.id, part)}`, runId: runOf(r), callId: sub(r.call_id, part), tool: r.tool, toolVersion: r.tool_version, release: RESOURCE.release,
            service: RESOURCE.service, environment: null, code: r.code, errorClass: r.error_class, retryable: r.retryable, attempts: r.attempt,
            decision: surfaced ? "surfaced" : "failed_run", told: surfaced ? `error: ${r.code}: the booking ${i} could not be changed (retry in ${i % 5}s)` : null,
            derived: null, occurredAt: r.ended_at, source: "native",
          },
        }],
  );
  const runs = n & 1 ? [...new Set(rows.map(runOf))].map((runId, i): { index: number; row: RunRow } => ({
    index: 2 * rows.length + i,
    row: {
      recordId: `${runId}-end`, runId, agent: "bench-agent", release: RESOURCE.release, service: RESOURCE.service, environment: null, sdkName: RESOURCE.sdk.name,
      sdkVersion: RESOURCE.sdk.version, startedAt: rows[0]!.started_at, endedAt: rows[rows.length - 1]!.ended_at + 1000, state: surfaced ? "completed" : "failed",
      deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, source: "native",
    },
  })) : [];
  return { spans: base.spans, toolErrors, runs };
}

/** Events/s (records of every kind) through writeRows of the told bench's batches, CLIENTS writers at once; `next` numbers the batches across calls. */
async function toldRate(store: Store, size: number, surfaced: boolean, next: { n: number }): Promise<{ perSec: number; latencies: number[] }> {
  // A batch of one is one failing call (the bench's first record is an ok one, with nothing to classify).
  const rows = size === 1 ? records(4).slice(3) : records(size);
  return closedLoopOf(CLIENTS, async () => {
    const batch = toldBatch(rows, next.n++, surfaced);
    await writeRows(store, "p", batch);
    return batch.spans.length + batch.toolErrors.length + batch.runs.length;
  });
}

/** Rounds per case: the two variants take turns, so a change in the machine's load hits both alike. */
const TOLD_ROUNDS = 3;

async function toldSection(dialects: readonly ("sqlite" | "postgres")[], dbs: ReturnType<typeof scratchDatabases> | null) {
  console.log(`bench:ingest --told — ${TOLD_ROUNDS} alternating rounds of ${SECONDS}s per variant and case after ${WARMUP_SECONDS}s warm-up each, ${CLIENTS} concurrent writers, Node ${process.version}`);
  console.log("writeRows of batches whose failing calls end in surfaced errors (classified at ingest) vs the same rows with errors not surfaced");
  for (const dialect of dialects) {
    for (const size of SIZES) {
      const open = async () => {
        const url = dialect === "postgres" ? await dbs!.create() : tmpFile("told.db");
        const store = dialect === "postgres" ? await openPgStore(url, { poolMax: CLIENTS }) : await openStore(url);
        await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
        return store;
      };
      const variants = [
        { surfaced: false, store: await open(), next: { n: 0 }, perSec: 0, latencies: [] as number[] },
        { surfaced: true, store: await open(), next: { n: 0 }, perSec: 0, latencies: [] as number[] },
      ];
      try {
        for (let round = 0; round < TOLD_ROUNDS; round++) {
          for (const v of round % 2 ? [...variants].reverse() : variants) {
            const r = await toldRate(v.store, size, v.surfaced, v.next);
            v.perSec += r.perSec / TOLD_ROUNDS;
            v.latencies.push(...r.latencies);
          }
        }
      } finally {
        await Promise.all(variants.map((v) => v.store.close()));
      }
      const [without, withTold] = variants.map((v) => ({ ...v, latencies: v.latencies.sort((a, b) => a - b) }));
      const line = (v: typeof without) => `${fmt(v!.perSec).padStart(7)} events/s (p50 ${pct(v!.latencies, 50).toFixed(1)} ms, p99 ${pct(v!.latencies, 99).toFixed(1)} ms)`;
      console.log(`${dialect.padEnd(8)} batch=${String(size).padStart(3)}: surfaced ${line(withTold)}  not surfaced ${line(without)}  ratio ${(withTold!.perSec / without!.perSec).toFixed(2)}`);
    }
  }
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
    options: { db: { type: "string", default: "sqlite" }, url: { type: "string" }, "store-only": { type: "boolean", default: false }, told: { type: "boolean", default: false } },
  });
  if (values.told && values.db === "sqlite") return toldSection(["sqlite"], null);
  if (values.db === "sqlite") return sqliteOnly();
  if (values.db !== "postgres") throw new Error(`--db ${values.db}: expected sqlite or postgres`);
  const url = values.url ?? process.env.FAULTLINE_BENCH_PG_URL;
  if (!url) throw new Error("--db postgres needs --url postgres://… or FAULTLINE_BENCH_PG_URL (a server where scratch databases may be created)");
  if (values.told) {
    const dbs = scratchDatabases(url);
    try {
      return await toldSection(["sqlite", "postgres"], dbs);
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
