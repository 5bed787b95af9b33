// Shared by the ingest bench's sections (bench/ingest.ts): the bench's records, their rows as the
// ingest normalises them, the closed loop that measures a rate, and the numbers' formatting.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RowBatch, SpanRow } from "../lib/ingest/rows";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Interleaved rounds per comparison: the headline is the median round. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const WARMUP_SECONDS = 1.5;
export const CLIENTS = 2;
export const SIZES = (process.env.BENCH_SIZES ?? "1,100,500").split(",").map(Number);
const TOOLS = ["cancel_booking", "search_flights", "lookup_customer", "refund_payment", "send_email"];
const OUTCOMES = ["ok", "ok", "ok", "failed", "declined", "refused", "timed_out"];

export interface BenchRecord {
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

/** The first record's time: a day back, so a run's batches, each later than the one before, stay in the past. */
export const T0 = Date.now() - 86_400_000;
// Every record time of a template lies in [T0, T0 + TIME_RANGE): the span a batch's records cover.
const TIME_RANGE = 1_000_000;
const RECORD_GAP_MS = 10;

/**
 * Records whose ids carry a placeholder, so each request is new data (duplicates are cheaper), and
 * whose times `batchBody`/`shiftTimes` move on per batch: a live agent's batches follow each other in
 * time, so their index entries land at the end of each (tool, time) range instead of among the rows of
 * every earlier batch (what a constant template's times did: ~10× the index pages written per batch).
 */
export function records(size: number): BenchRecord[] {
  const now = T0;
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
      started_at: now + i * RECORD_GAP_MS,
      ended_at: now + i * RECORD_GAP_MS + 35,
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

export const RESOURCE = { service: "bench-agent", release: "2026.12.0", sdk: { name: "bench", version: "1" } };

export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
export const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
export const sub = (s: string, batch: string) => s.replace("@@", batch);

/** How far the n-th batch of `size` records moves its template's times: batches follow each other. */
export const timeShift = (n: number, size: number) => n * size * RECORD_GAP_MS;
const isTemplateTime = (v: number) => v >= T0 && v < T0 + TIME_RANGE;
const TEMPLATE_TIME = new RegExp(`\\b${String(T0).slice(0, 7)}\\d{${String(T0).length - 7}}\\b`, "g");

/** A template request (JSON text) as its n-th batch: the batch's ids in, its times moved on. */
export function batchBody(tpl: string, batch: string, n: number, size: number): string {
  const shift = timeShift(n, size);
  return tpl.replaceAll("@@", batch).replace(TEMPLATE_TIME, (m) => (isTemplateTime(Number(m)) ? String(Number(m) + shift) : m));
}

/** A template's bound parameters (nested arrays) as a batch's: its ids in, template times moved on. */
export function batchValues(values: readonly unknown[], batch: string, shift: number): unknown[] {
  return values.map((v) =>
    typeof v === "string" ? (v.includes("@@") ? v.replaceAll("@@", batch) : v)
    : typeof v === "number" ? (isTemplateTime(v) ? v + shift : v)
    : Array.isArray(v) ? batchValues(v, batch, shift)
    : v,
  );
}

/**
 * Runs `clients` loops of `step` for the warm-up and then SECONDS (or `timing`'s); returns what the
 * steps started in the measured seconds counted (`records`), per second, and each step's latency.
 * `measuring` runs once, when the warm-up ends (CPU readings).
 */
export async function closedLoopOf(
  clients: number,
  step: () => Promise<number>,
  measuring?: () => Promise<void>,
  timing: { warmupSeconds: number; seconds: number } = { warmupSeconds: WARMUP_SECONDS, seconds: SECONDS },
): Promise<{ perSec: number; records: number; latencies: number[] }> {
  let counted = 0;
  const latencies: number[] = [];
  const measureFrom = performance.now() + timing.warmupSeconds * 1000;
  // The warm-up ends at a barrier: every writer finishes its step, the readings are taken, then all go on.
  await Promise.all(
    Array.from({ length: clients }, async () => {
      // Clock checks, not a timer: a synchronous step (SQLite) never yields to the timer queue.
      while (performance.now() < measureFrom) await step();
    }),
  );
  await measuring?.();
  const start = performance.now();
  const stopAt = start + timing.seconds * 1000;
  const client = async () => {
    while (performance.now() < stopAt) {
      const t0 = performance.now();
      // Not `counted += await step()`: that reads `counted` before the await, so with two writers
      // each step's total overwrote the other's and about half the records went uncounted.
      const stored = await step();
      counted += stored;
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  latencies.sort((a, b) => a - b);
  return { perSec: counted / ((performance.now() - start) / 1000), records: counted, latencies };
}

export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
/** "median (min–max)" of a round's figures. */
export const spread = (xs: readonly number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/** CPU seconds (user + system) a process used so far, from /proc (Linux clock ticks of 10 ms); 0 once it is gone. */
export function procCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** This process's CPU seconds so far. */
export const processCpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

/** One side of an interleaved comparison: a step that stores a batch, and where its CPU is spent. */
export interface Measured {
  name: string;
  step: () => Promise<number>;
  /** CPU seconds so far of the Node process doing the work. */
  nodeCpu: () => number;
  /** CPU seconds so far of the database's processes (PostgreSQL backends), when apart from Node. */
  dbCpu?: () => Promise<number>;
}

export interface RoundResult {
  perSec: number;
  /** CPU µs per record (= ms per 1,000). */
  nodeUs: number;
  dbUs: number;
}

/** One measured round: CLIENTS writers in a closed loop, and the CPU the measured seconds used per record. */
export async function runRound(m: Measured): Promise<RoundResult> {
  let node0 = 0;
  let db0 = 0;
  const r = await closedLoopOf(CLIENTS, m.step, async () => {
    node0 = m.nodeCpu();
    db0 = (await m.dbCpu?.()) ?? 0;
  });
  const db = ((await m.dbCpu?.()) ?? 0) - db0;
  return { perSec: r.perSec, nodeUs: ((m.nodeCpu() - node0) * 1e6) / r.records, dbUs: (db * 1e6) / r.records };
}

/** A file in a fresh scratch directory. */
export const tmpFile = (name: string) => path.join(mkdtempSync(path.join(tmpdir(), "faultline-bench-")), name);

/** The bench's rows as the ingest normalises them (what the native format makes of `records`). */
export function rowBatch(rows: BenchRecord[], batch: string, shift = 0): RowBatch {
  const spans = rows.map((r, index): { index: number; row: SpanRow } => ({
    index,
    row: {
      spanId: sub(r.id, batch), traceId: r.trace_id, parentSpanId: null, runId: sub(r.run_id, batch), callId: sub(r.call_id, batch), tool: r.tool,
      toolVersion: r.tool_version, release: RESOURCE.release, service: RESOURCE.service, environment: null, sdkName: RESOURCE.sdk.name,
      sdkVersion: RESOURCE.sdk.version, attempt: r.attempt, startedAt: r.started_at + shift, startedSubNs: null, endedAt: r.ended_at + shift, outcome: r.outcome, code: r.code,
      errorClass: r.error_class, retryable: r.retryable, retryAfterMs: r.retry_after_ms, backoffMs: r.backoff_ms, decision: r.decision,
      permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
    },
  }));
  return { spans, toolErrors: [], runs: [] };
}
