// `npm run bench:ingest` — events/s through POST /api/v1/ingest (real `next start`, 2 concurrent
// clients) for batches of 1, 100 and 500 records, next to the raw better-sqlite3 insert rate of the
// same rows into the same table in the same run; then p99 latency of 100-record batches paced at
// 1,000 records/s. Needs a build (`npm run build`).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore } from "../db/client";
import { startServer } from "../test/helpers/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_SECONDS = 1.5;
const TOOLS = ["cancel_booking", "search_flights", "lookup_customer", "refund_payment", "send_email"];
const OUTCOMES = ["ok", "ok", "ok", "failed", "declined", "refused", "timed_out"];

// A batch template whose ids carry a placeholder, so each request is new data (duplicates are cheaper).
function template(size: number): string {
  const now = Date.now() - 3_600_000;
  const records = Array.from({ length: size }, (_, i) => {
    const outcome = OUTCOMES[i % OUTCOMES.length]!;
    const failed = outcome !== "ok";
    return {
      type: "tool_call_span",
      id: `span-@@-${i}`,
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      run_id: `run-@@-${Math.floor(i / 10)}`,
      call_id: `call-@@-${Math.floor(i / 2)}`,
      tool: TOOLS[i % TOOLS.length],
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
  return JSON.stringify({ resource: { service: "bench-agent", release: "2026.12.0", sdk: { name: "bench", version: "1" } }, records });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function closedLoop(url: string, key: string, size: number, clients: number) {
  const tpl = template(size);
  let counter = 0;
  const latencies: number[] = [];
  let events = 0;
  let errors = 0;
  let measuring = false;
  const stopAt = performance.now() + (WARMUP_SECONDS + SECONDS) * 1000;
  setTimeout(() => (measuring = true), WARMUP_SECONDS * 1000);
  const client = async () => {
    while (performance.now() < stopAt) {
      const body = tpl.replaceAll("@@", `${size}-${counter++}`);
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
      await res.arrayBuffer();
      if (!measuring) continue;
      latencies.push(performance.now() - t0);
      if (res.status === 200) events += size;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  latencies.sort((a, b) => a - b);
  return { eventsPerSec: events / SECONDS, reqPerSec: latencies.length / SECONDS, p50: pct(latencies, 50), p99: pct(latencies, 99), errors };
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

// The machine's limit: the same span rows through a prepared statement into the same (migrated,
// indexed) table, 500 rows per transaction, no HTTP, no validation, no rollups.
function rawRate(size: number): number {
  const store = openStore(path.join(mkdtempSync(path.join(tmpdir(), "faultline-raw-")), "raw.db"));
  store.sqlite.prepare("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0)").run();
  const insert = store.sqlite.prepare(`INSERT INTO tool_call_spans (project_id, span_id, trace_id, run_id, call_id, tool, tool_version,
    release, service, sdk_name, sdk_version, attempt, started_at, ended_at, outcome, code, error_class, retryable, retry_after_ms,
    backoff_ms, decision, source, received_at) VALUES ('p', ?, ?, ?, ?, ?, ?, 'r', 's', 'b', '1', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'native', 0)
    ON CONFLICT DO NOTHING`);
  const records = (JSON.parse(template(size)) as { records: Record<string, string | number | boolean | null>[] }).records;
  const tx = store.sqlite.transaction((batch: number) => {
    for (const r of records) {
      insert.run(String(r.id).replace("@@", String(batch)), r.trace_id, String(r.run_id).replace("@@", String(batch)), String(r.call_id).replace("@@", String(batch)), r.tool, r.tool_version, r.attempt, r.started_at, r.ended_at, r.outcome, r.code, r.error_class, r.retryable === null ? null : r.retryable ? 1 : 0, r.retry_after_ms, r.backoff_ms, r.decision);
    }
  });
  let rows = 0;
  let batch = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) {
    tx(batch++);
    rows += records.length;
  }
  const rate = rows / ((performance.now() - t0) / 1000);
  store.sqlite.close();
  return rate;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function main() {
  console.log(`bench:ingest — ${SECONDS}s per case after ${WARMUP_SECONDS}s warm-up, 2 clients, Node ${process.version}`);
  const raw = rawRate(500);
  console.log(`raw better-sqlite3 prepared inserts, same rows and indexes, 500/tx: ${fmt(raw)} rows/s`);
  const server = await startServer();
  try {
    for (const size of (process.env.BENCH_SIZES ?? "1,100,500").split(",").map(Number)) {
      const r = await closedLoop(server.url, server.key, size, 2);
      console.log(
        `HTTP batch=${String(size).padStart(3)}: ${fmt(r.eventsPerSec).padStart(7)} events/s  ${fmt(r.reqPerSec).padStart(5)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  non-200: ${r.errors}  ratio to raw: ${(r.eventsPerSec / raw).toFixed(2)}`,
      );
    }
    const p = await paced(server.url, server.key, 100, 1000);
    console.log(`paced 100-record batches at 1,000 records/s (${p.n} requests): p50 ${p.p50.toFixed(1)} ms  p99 ${p.p99.toFixed(1)} ms  max ${p.max.toFixed(1)} ms`);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
