/**
 * Per-call overhead of the run loop plus recording, next to a bare call and to cockatiel, on two
 * paths, feature for feature: cockatiel's wrap(retry, circuitBreaker, timeout) beside a ToolRunner
 * with retries, a breaker and a per-attempt timeout,
 *   - success: the tool answers at once;
 *   - fail twice, then succeed: two failed attempts and two backoffs before the answer.
 * Backoffs and timeouts run on one simulated timer queue on both sides (cockatiel reads the global
 * setTimeout, which this script points at it for those cases), so no case sleeps for real.
 * Every case runs in every round, interleaved; medians, ratios and the spread (min–max over rounds).
 *   npx tsx bench/runtime.ts [iterations] [rounds]
 */
import {
  ConsecutiveBreaker,
  ExponentialBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleAll,
  retry,
  timeout,
  wrap,
} from "cockatiel";
import type { IngestRecord } from "../lib/contracts";
import { CircuitBreaker, Exporter, ToolRunner, VirtualTime, type RecordSink, type ToolDefinition } from "../lib/runtime";
import { withFakeTimers } from "./fake-timers";

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 7);
// The fail-twice path costs two failures and two simulated backoffs per call: fewer calls per round.
const N_FLAKY = Math.max(1, Math.floor(N / 10));

const noop = async () => 1;
let kept = 0;
const discard: RecordSink = { record: (r: IngestRecord) => void (kept += r.type.length) };
const ARGS = { query: "weather in Lisbon", limit: 5 };

/** A tool body that fails twice and then answers, for every call. */
function flakyBody() {
  let n = 0;
  return async () => {
    if (n++ % 3 < 2) throw new Error("upstream hiccup");
    return 1;
  };
}

const policy = retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() });
// Feature-equal pair: retry (3 attempts) + consecutive-failure breaker + per-attempt timeout.
const cockatielWrap = () =>
  wrap(
    retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }),
    circuitBreaker(handleAll, { halfOpenAfter: 30_000, breaker: new ConsecutiveBreaker(5) }),
    timeout(10_000, TimeoutStrategy.Cooperative),
  );
const composed = cockatielWrap();
const flakyComposed = cockatielWrap();
const cockatielFlaky = flakyBody();

const guardedTool = (execute: ToolDefinition["execute"], time?: VirtualTime): ToolDefinition => ({
  name: "noop",
  timeoutMs: 10_000,
  // An unmapped throw is retried only for an idempotent tool; cockatiel's handleAll retries anything.
  idempotent: true,
  breaker: new CircuitBreaker("bench", { failureThreshold: 5, halfOpenAfterMs: 30_000, ...(time ? { clock: time } : {}) }),
  execute,
});
const guarded = new ToolRunner({ agent: "bench", retry: { maxAttempts: 3 }, tools: [guardedTool(noop)] });
const guardedSpans = new ToolRunner({ agent: "bench", retry: { maxAttempts: 3 }, sink: discard, tools: [guardedTool(noop)] });
const flakyTime = new VirtualTime(Date.UTC(2026, 0, 1));
const flakyRunner = (sink: RecordSink | undefined) =>
  new ToolRunner({
    agent: "bench",
    retry: { maxAttempts: 3 },
    // The per-run retry budget (max 1000) would stop a long run's retries: a run serves ≤ 250 calls.
    maxToolAttempts: 1000,
    sink,
    clock: flakyTime,
    scheduler: flakyTime,
    sleep: flakyTime.sleep,
    tools: [guardedTool(flakyBody(), flakyTime)],
  });
const flaky = flakyRunner(undefined);
const flakySpans = flakyRunner(discard);
const CALLS_PER_RUN = 250;

const runnerWith = (sink: RecordSink | undefined) => new ToolRunner({ agent: "bench", sink, tools: [{ name: "noop", execute: noop }] });
const recording = runnerWith(discard);
const bare = runnerWith(undefined);
const okFetch = async () => ({ status: 200, headers: { get: () => null }, text: async () => '{"accepted":0,"duplicates":0,"rejected":[]}' });
const exporter = new Exporter({ endpoint: "http://bench.invalid", apiKey: "k", fetch: okFetch, maxQueueSize: 1_000_000, maxQueueBytes: 1 << 30 });
const exporting = runnerWith(exporter);

async function calls(runner: ToolRunner, n: number): Promise<void> {
  const run = runner.startRun();
  for (let i = 0; i < n; i++) await run.call({ tool: "noop", callId: "c", args: ARGS });
  run.end();
}

async function flakyCalls(runner: ToolRunner): Promise<void> {
  for (let done = 0; done < N_FLAKY; done += CALLS_PER_RUN) {
    const run = runner.startRun();
    for (let i = 0; i < Math.min(CALLS_PER_RUN, N_FLAKY - done); i++) {
      const result = await run.call({ tool: "noop", callId: "c", args: ARGS });
      if (result.status !== "ok" || result.attempts !== 3) throw new Error(`flaky call ended ${result.status} after ${result.attempts}`);
    }
    run.end();
  }
}

interface Case {
  calls: number;
  fn: () => Promise<unknown>;
}

const cases: Record<string, Case> = {
  "bare call": {
    calls: N,
    fn: async () => {
      for (let i = 0; i < N; i++) await noop();
    },
  },
  "cockatiel retry (3 attempts, ExponentialBackoff)": {
    calls: N,
    fn: async () => {
      for (let i = 0; i < N; i++) await policy.execute(noop);
    },
  },
  "cockatiel wrap(retry, breaker, timeout)": {
    calls: N,
    fn: async () => {
      for (let i = 0; i < N; i++) await composed.execute(noop);
    },
  },
  "ToolRunner timeout + breaker + retry, no sink": { calls: N, fn: () => calls(guarded, N) },
  "ToolRunner timeout + breaker + retry + spans": { calls: N, fn: () => calls(guardedSpans, N) },
  "ToolRunner, no sink": { calls: N, fn: () => calls(bare, N) },
  "ToolRunner + span records (memory sink)": { calls: N, fn: () => calls(recording, N) },
  "ToolRunner + Exporter (serialise, queue, batch, stub fetch)": {
    calls: N,
    fn: async () => {
      await calls(exporting, N);
      await exporter.flush();
    },
  },
  "cockatiel wrap, fail twice then succeed": {
    calls: N_FLAKY,
    fn: () =>
      withFakeTimers(async () => {
        for (let i = 0; i < N_FLAKY; i++) await flakyComposed.execute(cockatielFlaky);
      }),
  },
  "ToolRunner guarded, fail twice then succeed, no sink": { calls: N_FLAKY, fn: () => flakyCalls(flaky) },
  "ToolRunner guarded, fail twice then succeed + spans": { calls: N_FLAKY, fn: () => flakyCalls(flakySpans) },
};

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const c of Object.values(cases)) await c.fn(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, c] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    await c.fn();
    samples[name]!.push(Number(process.hrtime.bigint() - start) / c.calls);
  }
}
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const med = (name: string) => median(samples[name]!);
const base = med("bare call");
const cockatiel = med("cockatiel retry (3 attempts, ExponentialBackoff)");
console.log(`node ${process.version}, ${N} calls (${N_FLAKY} on the fail-twice path) × ${ROUNDS} rounds, median ns per call`);
console.log("case".padEnd(62), "ns/call".padStart(9), "spread".padStart(15), "× bare".padStart(8), "× cockatiel".padStart(12));
for (const name of Object.keys(cases)) {
  const ns = med(name);
  const s = sorted(samples[name]!);
  const spread = `${s[0]!.toFixed(0)}–${s[s.length - 1]!.toFixed(0)}`;
  console.log(name.padEnd(62), ns.toFixed(0).padStart(9), spread.padStart(15), (ns / base).toFixed(1).padStart(8), (ns / cockatiel).toFixed(2).padStart(12));
}

/** The ratio's median over rounds (each round's pair measured back to back) and its spread. */
function pairRatio(ours: string, theirs: string): string {
  const ratios = samples[ours]!.map((ns, i) => ns / samples[theirs]![i]!);
  const s = sorted(ratios);
  return `${median(ratios).toFixed(2)}× (rounds ${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
}
console.log("feature-equal, ToolRunner (timeout + breaker + retry) against cockatiel wrap(retry, circuitBreaker, timeout):");
console.log(`  success path:                  ${(med("ToolRunner timeout + breaker + retry, no sink") / 1000).toFixed(2)} µs/call, ${pairRatio("ToolRunner timeout + breaker + retry, no sink", "cockatiel wrap(retry, breaker, timeout)")}`);
console.log(`  success path, spans recorded:  ${(med("ToolRunner timeout + breaker + retry + spans") / 1000).toFixed(2)} µs/call, ${pairRatio("ToolRunner timeout + breaker + retry + spans", "cockatiel wrap(retry, breaker, timeout)")}`);
console.log(`  fail twice, then succeed:      ${(med("ToolRunner guarded, fail twice then succeed, no sink") / 1000).toFixed(2)} µs/call, ${pairRatio("ToolRunner guarded, fail twice then succeed, no sink", "cockatiel wrap, fail twice then succeed")}`);
console.log(`  fail twice + spans recorded:   ${(med("ToolRunner guarded, fail twice then succeed + spans") / 1000).toFixed(2)} µs/call, ${pairRatio("ToolRunner guarded, fail twice then succeed + spans", "cockatiel wrap, fail twice then succeed")}`);
const s = exporter.stats();
console.log(`exporter: produced ${s.produced}, sent ${s.sent}, dropped ${s.droppedTotal}, requests ${s.requests} (sink checksum ${kept})`);
await exporter.shutdown({ timeoutMs: 1000 });
