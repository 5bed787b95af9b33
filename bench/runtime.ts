/**
 * Per-call overhead of the run loop plus recording, for a no-op tool, next to a bare call, to
 * cockatiel's retry policy, and — feature for feature — to cockatiel's wrap(retry, circuitBreaker,
 * timeout) beside the loop with a timeout, a breaker and retries. Same process, interleaved rounds.
 *   npx tsx bench/runtime.ts [iterations]
 */
import { ConsecutiveBreaker, ExponentialBackoff, TimeoutStrategy, circuitBreaker, handleAll, retry, timeout, wrap } from "cockatiel";
import type { IngestRecord } from "../lib/contracts";
import { CircuitBreaker, Exporter, ToolRunner, type RecordSink } from "../lib/runtime";

const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = 7;

const noop = async () => 1;
let kept = 0;
const discard: RecordSink = { record: (r: IngestRecord) => void (kept += r.type.length) };

const policy = retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() });
// Feature-equal pair: retry + consecutive-failure breaker + per-attempt timeout, on both sides.
const composed = wrap(
  retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }),
  circuitBreaker(handleAll, { halfOpenAfter: 30_000, breaker: new ConsecutiveBreaker(5) }),
  timeout(10_000, TimeoutStrategy.Cooperative),
);
const guarded = new ToolRunner({
  agent: "bench",
  retry: { maxAttempts: 3 },
  tools: [{ name: "noop", timeoutMs: 10_000, breaker: new CircuitBreaker("bench", { failureThreshold: 5, halfOpenAfterMs: 30_000 }), execute: noop }],
});
const runnerWith = (sink: RecordSink | undefined) => new ToolRunner({ agent: "bench", sink, tools: [{ name: "noop", execute: noop }] });
const recording = runnerWith(discard);
const bare = runnerWith(undefined);
const okFetch = async () => ({ status: 200, headers: { get: () => null }, text: async () => '{"accepted":0,"duplicates":0,"rejected":[]}' });
const exporter = new Exporter({ endpoint: "http://bench.invalid", apiKey: "k", fetch: okFetch, maxQueueSize: 1_000_000, maxQueueBytes: 1 << 30 });
const exporting = runnerWith(exporter);

const cases: Record<string, () => Promise<unknown>> = {
  "bare call": async () => {
    for (let i = 0; i < N; i++) await noop();
  },
  "cockatiel retry (3 attempts, ExponentialBackoff)": async () => {
    for (let i = 0; i < N; i++) await policy.execute(noop);
  },
  "cockatiel wrap(retry, circuitBreaker, timeout)": async () => {
    for (let i = 0; i < N; i++) await composed.execute(noop);
  },
  "ToolRunner timeout + breaker + retry, no sink": async () => {
    const run = guarded.startRun();
    for (let i = 0; i < N; i++) await run.call({ tool: "noop", callId: "c" });
    run.end();
  },
  "ToolRunner, no sink": async () => {
    const run = bare.startRun();
    for (let i = 0; i < N; i++) await run.call({ tool: "noop", callId: "c" });
    run.end();
  },
  "ToolRunner + span records (memory sink)": async () => {
    const run = recording.startRun();
    for (let i = 0; i < N; i++) await run.call({ tool: "noop", callId: "c" });
    run.end();
  },
  "ToolRunner + Exporter (serialise, queue, batch, stub fetch)": async () => {
    const run = exporting.startRun();
    for (let i = 0; i < N; i++) await run.call({ tool: "noop", callId: "c" });
    run.end();
    await exporter.flush();
  },
};

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (const fn of Object.values(cases)) await fn(); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    await fn();
    samples[name]!.push(Number(process.hrtime.bigint() - start) / N);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(samples["bare call"]!);
const cockatiel = median(samples["cockatiel retry (3 attempts, ExponentialBackoff)"]!);
console.log(`node ${process.version}, ${N} calls × ${ROUNDS} rounds, median ns per call`);
console.log("case".padEnd(62), "ns/call".padStart(9), "× bare".padStart(8), "× cockatiel".padStart(12), "overhead ns".padStart(12));
for (const name of Object.keys(cases)) {
  const ns = median(samples[name]!);
  console.log(name.padEnd(62), ns.toFixed(0).padStart(9), (ns / base).toFixed(1).padStart(8), (ns / cockatiel).toFixed(2).padStart(12), (ns - base).toFixed(0).padStart(12));
}
const pair = median(samples["ToolRunner timeout + breaker + retry, no sink"]!) / median(samples["cockatiel wrap(retry, circuitBreaker, timeout)"]!);
console.log(`feature-equal: ToolRunner (timeout + breaker + retry) costs ${pair.toFixed(2)}× cockatiel wrap(retry, circuitBreaker, timeout)`);
const s = exporter.stats();
console.log(`exporter: produced ${s.produced}, sent ${s.sent}, dropped ${s.droppedTotal}, requests ${s.requests} (sink checksum ${kept})`);
await exporter.shutdown({ timeoutMs: 1000 });
