// `npm run bench:overload` — what happens past the sustainable ingest rate. The sustainable rate is
// what a few closed-loop clients sending 100-record batches get accepted; each phase offers 1× (the
// baseline), 2× and 10× of the rate measured just before it, open loop from up to 200 connections
// (autocannon, each request new data, the rate spread across each second: see `offer`), and the
// sustainable rate is measured again after it. It prints the status counts, the 429s by message
// (which rule refused), latency percentiles of accepted (200/207) and shed (429) requests, client
// time-outs, and the latency and answers of a health probe sent every 250 ms meanwhile from a
// process of its own. Then the two figures issue 25 asks for, per round and as median and spread
// over BENCH_ROUNDS rounds (default 3): the records accepted per second at 10× as a ratio of the
// mean sustainable rate measured around that phase (target ≥ 0.8), and the share of requests
// refused 429 at 1× (target ≤ 0.5 %). Needs a build (`npm run build`). BENCH_SECONDS sets each
// phase's length (the sustainable measurements take half of it, at least 5 s), BENCH_SPREAD the
// bursts per second (1 is autocannon's own pacing); BENCH_SERVER_LOG names a file for the server's output.
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startServer } from "../test/helpers/server";

// autocannon ships no types: the part of its API used here.
interface AutocannonRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string) => void;
}
interface AutocannonResult {
  requests: { sent: number };
  timeouts: number;
  errors: number;
}
interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  overallRate: number;
  duration: number;
  timeout: number;
  requests: AutocannonRequest[];
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const BATCH = Number(process.env.BENCH_BATCH ?? 100);
/** How many load generators share a phase's rate, started evenly across each second (see `offer`). */
const SPREAD = Number(process.env.BENCH_SPREAD ?? 10);
/** The phases of a round, as multiples of the sustainable rate (BENCH_FACTORS, comma-separated; default 1,2,10). */
const FACTORS = (process.env.BENCH_FACTORS ?? "1,2,10").split(",").map(Number);
const TOOLS = ["cancel_booking", "search_flights", "lookup_customer", "refund_payment", "send_email"];

function template(size: number): string {
  const now = Date.now() - 3_600_000;
  const records = Array.from({ length: size }, (_, i) => {
    const failed = i % 3 === 0;
    return {
      type: "tool_call_span",
      id: `span-@@-${i}`,
      run_id: `run-@@-${Math.floor(i / 10)}`,
      call_id: `call-@@-${Math.floor(i / 2)}`,
      tool: TOOLS[i % TOOLS.length],
      tool_version: "1.4.0",
      attempt: (i % 2) + 1,
      started_at: now + i * 10,
      ended_at: now + i * 10 + 35,
      outcome: failed ? "failed" : "ok",
      code: failed ? `code_${i % 12}` : null,
      error_class: failed ? "ToolFailure" : null,
      retryable: failed ? true : null,
      backoff_ms: failed ? 1500 : null,
      decision: failed ? "retried" : null,
    };
  });
  return JSON.stringify({ resource: { service: "bench-agent", release: "2026.12.0", sdk: { name: "bench", version: "1" } }, records });
}

const pct = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const ms = (n: number) => (Number.isNaN(n) ? "-" : `${Math.round(n)} ms`);

/** Closed loop with a few clients: the rate the server sustains, and the share of those clients' requests it refused (429). */
async function sustainable(url: string, key: string, tpl: string, clients: number, seconds: number, tag: string): Promise<{ rate: number; shed: number }> {
  let ok = 0;
  let refused = 0;
  let answered = 0;
  let counter = 0;
  const stopAt = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < stopAt) {
      const res = await fetch(`${url}/api/v1/ingest`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: tpl.replaceAll("@@", `${tag}-${counter++}`),
      });
      await res.arrayBuffer();
      answered++;
      if (res.status === 200) ok++;
      if (res.status === 429) refused++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { rate: ok / seconds, shed: answered === 0 ? NaN : refused / answered };
}

// The health probe runs in a process of its own, so that its latencies are the server's, not those
// of this process's event loop, which autocannon keeps busy. Every probe counts: answered ones by
// status, with their latency; the others by error (a time-out after 10 s, a refused connection).
const PROBE = `
const url = process.argv[1]; const lat = []; const outcomes = {}; let running = true;
process.on("message", () => { running = false; });
(async () => {
  while (running) {
    const t0 = performance.now();
    let outcome;
    try { const r = await fetch(url + "/api/health", { signal: AbortSignal.timeout(10000) }); await r.arrayBuffer(); lat.push(performance.now() - t0); outcome = String(r.status); }
    catch (e) { outcome = e.name === "TimeoutError" ? "time-out" : (e.cause?.code ?? e.name); }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    await new Promise((r) => setTimeout(r, Math.max(0, 250 - (performance.now() - t0))));
  }
  process.send({ lat, outcomes }, () => process.exit(0));
})();`;

interface HealthFigures {
  latencies: number[];
  outcomes: Record<string, number>;
}

/** Health probes every 250 ms until stopped. */
function probeHealth(url: string): { stop: () => Promise<HealthFigures> } {
  const child = fork("-e", [PROBE, url], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const result = new Promise<{ lat: number[]; outcomes: Record<string, number> }>((resolve) => child.once("message", (m) => resolve(m as { lat: number[]; outcomes: Record<string, number> })));
  return {
    async stop() {
      child.send("stop");
      const { lat, outcomes } = await result;
      return { latencies: lat.sort((a, b) => a - b), outcomes };
    },
  };
}

interface Offered {
  /** Latencies (ms) of the answered requests, by status. */
  byStatus: Map<number, number[]>;
  /** 429s by their message (numbers replaced by N): which rule refused. */
  refusals: Map<string, number>;
  sent: number;
  timeouts: number;
  errors: number;
}

/**
 * Open loop: offers `rate` requests/s for SECONDS from up to CONNECTIONS connections, each request
 * with new data, whatever the answers so far. autocannon's overallRate gives each connection a quota
 * per second on timers that all start together, so one instance sends a whole second's load at one
 * instant, a burst rather than the rate. The rate is therefore split over SPREAD instances started
 * evenly across the first second: bursts of 1/SPREAD of a second's load, SPREAD times a second.
 */
async function offer(url: string, key: string, tpl: string, rate: number, tag: string): Promise<Offered> {
  const out: Offered = { byStatus: new Map(), refusals: new Map(), sent: 0, timeouts: 0, errors: 0 };
  let counter = 0;
  const total = Math.max(1, Math.round(rate));
  const share = (i: number) => Math.floor(((i + 1) * total) / SPREAD) - Math.floor((i * total) / SPREAD);
  const instances = Array.from({ length: SPREAD }, async (_, i) => {
    const own = share(i);
    if (own === 0) return;
    await new Promise((r) => setTimeout(r, (i * 1000) / SPREAD));
    const instance = autocannon({
      url: `${url}/api/v1/ingest`,
      connections: Math.max(1, Math.round(CONNECTIONS / SPREAD)),
      overallRate: own,
      duration: SECONDS,
      timeout: 10,
      requests: [
        {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          setupRequest: (req: AutocannonRequest) => ({ ...req, body: tpl.replaceAll("@@", `${tag}-${counter++}`) }),
          onResponse: (status: number, body: string) => {
            if (status !== 429) return;
            let message = "(no envelope)";
            try {
              message = (JSON.parse(body) as { error: { message: string } }).error.message.replace(/\d+/g, "N");
            } catch {
              // counted as it is
            }
            out.refusals.set(message, (out.refusals.get(message) ?? 0) + 1);
          },
        },
      ],
    });
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      const list = out.byStatus.get(statusCode) ?? [];
      list.push(responseTime);
      out.byStatus.set(statusCode, list);
    });
    const result = await instance;
    out.sent += result.requests.sent;
    out.timeouts += result.timeouts;
    out.errors += result.errors;
  });
  await Promise.all(instances);
  return out;
}

async function overload(url: string, key: string, tpl: string, rate: number, tag: string) {
  const health = probeHealth(url);
  // Latencies include this process's own delays: on a starved machine they are reported too.
  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  const offered = await offer(url, key, tpl, rate, tag);
  clientDelay.disable();
  const h = await health.stop();
  return { offered, health: h, clientDelayMs: { p99: clientDelay.percentile(99) / 1e6, max: clientDelay.max / 1e6 } };
}

/** One line of latency percentiles over a sorted list. */
function percentiles(label: string, sorted: number[]): string {
  return `  ${label.padEnd(14)} ${String(sorted.length).padStart(6)}  p50 ${ms(pct(sorted, 50))}  p95 ${ms(pct(sorted, 95))}  p99 ${ms(pct(sorted, 99))}  max ${ms(sorted[sorted.length - 1] ?? NaN)}  (${(sorted.length / SECONDS).toFixed(1)}/s)`;
}

function report(factor: number, rate: number, run: Awaited<ReturnType<typeof overload>>): void {
  const { offered, health, clientDelayMs } = run;
  const { byStatus } = offered;
  const load = loadavg().map((l) => l.toFixed(2)).join(" ");
  const answered = [...byStatus.values()].reduce((n, list) => n + list.length, 0);
  console.log(
    `\n${factor}× offered (${Math.round(rate * factor)} req/s in ${SPREAD} bursts a second): ${offered.sent} sent, ${answered} answered, ${offered.timeouts} client time-outs (10 s), ${offered.errors} errors; load average ${load}`,
  );
  const of = (...statuses: number[]) => statuses.flatMap((st) => byStatus.get(st) ?? []).sort((a, b) => a - b);
  console.log(percentiles("accepted 2xx", of(200, 207)));
  console.log(percentiles("shed 429", of(429)));
  for (const [message, n] of [...offered.refusals.entries()].sort((a, b) => b[1] - a[1])) console.log(`    ${String(n).padStart(6)}  "${message}"`);
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    if (status === 200 || status === 207 || status === 429) continue;
    console.log(percentiles(`status ${status}`, list.sort((a, b) => a - b)));
  }
  const outcomes = Object.entries(health.outcomes).map(([k, n]) => `${k}×${n}`).join(", ") || "none";
  console.log(`${percentiles("health", health.latencies)}  answers: ${outcomes}`);
  console.log(`  load generator's own event-loop delay: p99 ${ms(clientDelayMs.p99)}, max ${ms(clientDelayMs.max)} (included in the latencies above)`);
}

/** Median, spread and per-round values of a ratio, with its target. */
function summary(label: string, values: number[], show: (v: number) => string, target: string, met: boolean): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return `${label}: median ${show(median)} (spread ${show(sorted[0] ?? NaN)} – ${show(sorted[sorted.length - 1] ?? NaN)}; rounds ${values.map(show).join(", ")}); target ${target}: ${met ? "met" : "NOT met"}`;
}

async function main() {
  console.log(`bench:overload — ${BATCH}-record batches, ${CONNECTIONS} connections, ${SECONDS}s per phase, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  // Folds run every 2 s by default, as under steady ingest; FAULTLINE_DRIFT_REFRESH_MS overrides it.
  const server = await startServer({ env: { FAULTLINE_DRIFT_REFRESH_MS: process.env.FAULTLINE_DRIFT_REFRESH_MS ?? "2000" } });
  try {
    const tpl = template(BATCH);
    await sustainable(server.url, server.key, tpl, 4, 2, "warm");
    const goodput: number[] = [];
    const shedAt1: number[] = [];
    const sustainSeconds = Math.max(5, SECONDS / 2);
    for (let round = 1; round <= ROUNDS; round++) {
      // The sustainable rate is measured before and after every phase: the phase is offered the rate
      // just before it, and its goodput is compared with the mean of the two, so a machine that got
      // busier or quieter meanwhile moves both sides.
      let before = await sustainable(server.url, server.key, tpl, 4, sustainSeconds, `r${round}s0`);
      console.log(`\nround ${round}: sustainable rate (4 closed-loop clients): ${before.rate.toFixed(1)} req/s = ${Math.round(before.rate * BATCH)} records/s, ${(before.shed * 100).toFixed(2)} % of their requests 429`);
      for (const factor of FACTORS) {
        const run = await overload(server.url, server.key, tpl, before.rate * factor, `r${round}x${factor}`);
        report(factor, before.rate, run);
        await new Promise((r) => setTimeout(r, 2000));
        const after = await sustainable(server.url, server.key, tpl, 4, sustainSeconds, `r${round}s${factor}`);
        const baseline = (before.rate + after.rate) / 2;
        const count = (...statuses: number[]) => statuses.reduce((n, st) => n + (run.offered.byStatus.get(st)?.length ?? 0), 0);
        const answered = [...run.offered.byStatus.values()].reduce((n, list) => n + list.length, 0);
        const accepted = count(200, 207) / SECONDS;
        console.log(
          `  sustainable rate after: ${after.rate.toFixed(1)} req/s (${(after.shed * 100).toFixed(2)} % 429); accepted ${accepted.toFixed(1)} req/s = ${(accepted / baseline).toFixed(2)} × the mean sustainable rate around the phase`,
        );
        if (factor === 1) shedAt1.push(answered === 0 ? NaN : count(429) / answered);
        if (factor === 10) goodput.push(accepted / baseline);
        before = after;
      }
    }
    console.log(`\n${summary("accepted records/s at 10× ÷ sustainable records/s", goodput, (v) => v.toFixed(2), "≥ 0.80", goodput.every((v) => v >= 0.8))}`);
    console.log(summary("429 share of requests at 1×", shedAt1, (v) => `${(v * 100).toFixed(2)} %`, "≤ 0.50 %", shedAt1.every((v) => v <= 0.005)));
  } finally {
    if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, server.output());
    await server.stop();
  }
}

await main();
