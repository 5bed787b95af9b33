import { describe, expect, it } from "vitest";
import { EXPERIMENT_ALPHA, type GuardBounds } from "@/lib/contracts/experiments";
import type { ToolCallSpanRecord, ToolErrorRecord } from "@/lib/contracts";
import type { ToldStep } from "@/lib/contracts/told";
import { variantSums, type VariantCount } from "@/lib/experiments/stats";
import { verdictOf } from "@/lib/experiments/verdict";
import { MemorySink, ToolFailure, ToolRunner, VirtualTime, assignVariant, defineExperiment, seededRandom, sequentialIds, type LocalExperiment } from "@/lib/runtime";
import { classifyRun, type RunCall } from "@/lib/told/next-step";

// A scripted model told one of two wordings recovers with a known probability per wording. The
// verdict is read after every batch of runs, as a person checking the page every day would.

const GUARDS: GuardBounds = { repeatRate: 0.1, runFailedRate: 0.1, callsUntilRecovery: 1 };
const T0 = Date.UTC(2026, 0, 15, 12);
const LOOK_EVERY = 25;

/** Outcome of one told error, drawn for a model that self-corrects with probability `p`. */
function draw(random: () => number, p: number): Pick<VariantCount, "step" | "runState" | "calls"> {
  if (random() < p) return { step: "recovered", runState: "completed", calls: random() < 0.7 ? 1 : 2 };
  const u = random();
  return u < 0.5 ? { step: "gave_up", runState: "completed", calls: 0 } : u < 0.8 ? { step: "repeated", runState: "completed", calls: 0 } : { step: "run_failed", runState: "failed", calls: 0 };
}

/**
 * One experiment streamed run by run (assignment by the runtime's hash of the run id), looked at
 * every {@link LOOK_EVERY} runs until a winner or `maxRuns`. Answers the first winner, or null.
 */
function streamExperiment(id: string, rates: Record<string, number>, random: () => number, maxRuns: number): { winner: string | null; guard: boolean; runs: number } {
  const variants = Object.keys(rates).map((v) => ({ id: v, weight: 50 }));
  // Counts kept as the store keeps them: one row per (variant, step, run state, calls).
  const counts = new Map<string, VariantCount>();
  for (let r = 1; r <= maxRuns; r++) {
    const v = assignVariant(`${id}-run-${r}`, id, variants)!;
    const o = draw(random, rates[v.id]!);
    const key = `${v.id}|${o.step}|${o.runState}|${o.calls}`;
    const row = counts.get(key) ?? counts.set(key, { variant: v.id, ...o, errors: 0 }).get(key)!;
    row.errors++;
    if (r % LOOK_EVERY === 0) {
      const verdict = verdictOf(variantSums(Object.keys(rates), [...counts.values()]), GUARDS, EXPERIMENT_ALPHA);
      if (verdict.kind === "winner") return { winner: verdict.variant, guard: false, runs: r };
      if (verdict.kind === "guard_tripped") return { winner: null, guard: true, runs: r };
    }
  }
  return { winner: null, guard: false, runs: maxRuns };
}

describe("the sequential verdict, simulated (fixed seed)", () => {
  it("stays inconclusive for equal wordings: the false-positive share over 400 experiments, each looked at every 25 runs, is within alpha", () => {
    const random = seededRandom(20261204);
    const experiments = 400;
    let falseWinners = 0;
    let falseGuards = 0;
    for (let e = 0; e < experiments; e++) {
      const r = streamExperiment(`aa-${e}`, { a: 0.45, b: 0.45 }, random, 4000);
      if (r.winner !== null) falseWinners++;
      if (r.guard) falseGuards++;
    }
    const share = falseWinners / experiments;
    console.log(`equal wordings: ${falseWinners} of ${experiments} experiments declared a winner (share ${share.toFixed(4)}; documented bound alpha = ${EXPERIMENT_ALPHA}), ${falseGuards} tripped a guard; up to 160 looks each`);
    expect(share).toBeLessThanOrEqual(EXPERIMENT_ALPHA);
    expect(falseGuards / experiments).toBeLessThanOrEqual(EXPERIMENT_ALPHA);
  }, 120_000);

  it("picks the better wording (40 % against 55 %) in at least 90 % of 200 experiments, and the worse one at most alpha of the time", () => {
    const random = seededRandom(7);
    const experiments = 200;
    let right = 0;
    let wrong = 0;
    const runs: number[] = [];
    for (let e = 0; e < experiments; e++) {
      const r = streamExperiment(`ab-${e}`, { control: 0.4, better: 0.55 }, random, 4000);
      if (r.winner === "better") right++;
      if (r.winner === "control") wrong++;
      runs.push(r.runs);
    }
    runs.sort((a, b) => a - b);
    console.log(`40% vs 55%: better picked in ${right}/${experiments}, worse in ${wrong}/${experiments}; median runs to a verdict ${runs[experiments / 2]}`);
    expect(right / experiments).toBeGreaterThanOrEqual(0.9);
    expect(wrong / experiments).toBeLessThanOrEqual(EXPERIMENT_ALPHA);
  }, 60_000);

  it("stops on a guard when a wording makes the model repeat itself far more, whatever its self-correction", () => {
    const counts: VariantCount[] = [];
    const add = (variant: string, step: ToldStep, n: number) => counts.push({ variant, step, runState: "completed", calls: step === "recovered" ? 1 : 0, errors: n });
    add("a", "recovered", 100); add("a", "gave_up", 80); add("a", "repeated", 20);
    add("b", "recovered", 100); add("b", "repeated", 100);
    expect(verdictOf(variantSums(["a", "b"], counts), GUARDS, EXPERIMENT_ALPHA)).toMatchObject({ kind: "guard_tripped", variant: "b", metric: "repeatRate" });
  });
});

/** Runs `runs` agent runs through the real runtime; the model recovers with `rates[variant]` after being told. */
async function runtimeExperiment(experiment: LocalExperiment, rates: Record<string, number>, runs: number): Promise<VariantCount[]> {
  const time = new VirtualTime(T0);
  const sink = new MemorySink();
  const book = {
    name: "book_flight",
    execute: (args: unknown) => {
      if ((args as { fare: string }).fare === "Y") throw new ToolFailure("book_flight", "fare_class_unavailable", { message: "fare class no longer sold", experiment });
      return { booking: "BK1" };
    },
  };
  const runner = new ToolRunner({ agent: "sim", tools: [book], sink, clock: time, scheduler: time, random: seededRandom(1), ids: sequentialIds() });
  const model = seededRandom(99);
  const textOf = new Map(experiment.variants.map((v) => [v.text, v.id]));
  for (let r = 0; r < runs; r++) {
    const run = runner.startRun({ runId: `sim-${r}` });
    const first = await run.call({ callId: "c1", tool: "book_flight", args: { fare: "Y" } });
    time.advance(10);
    // The model reads only the told text: which wording it got decides its chance.
    const wording = [...textOf.keys()].find((t) => "told" in first && first.told?.includes(t));
    if (model() < rates[textOf.get(wording!)!]!) await run.call({ callId: "c2", tool: "book_flight", args: { fare: "M" } });
    time.advance(10);
    run.end("completed");
  }
  const counts: VariantCount[] = [];
  const byRun = new Map<string, (typeof sink.records)[number][]>();
  for (const rec of sink.records) byRun.set(rec.run_id, [...(byRun.get(rec.run_id) ?? []), rec]);
  for (const records of byRun.values()) {
    const spans = records.filter((x): x is ToolCallSpanRecord => x.type === "tool_call_span");
    const errors = records.filter((x): x is ToolErrorRecord => x.type === "tool_error" && x.told !== null);
    const calls: RunCall[] = spans.map((s) => ({ callId: s.call_id, tool: s.tool, startedAt: s.started_at, outcome: s.outcome, code: s.code ?? null, argsHash: s.args_hash ?? null, afterError: s.after_error === undefined ? null : (s.after_error ?? "") }));
    const steps = classifyRun(calls, errors.map((e) => ({ eventId: e.id, callId: e.call_id, tool: e.tool, code: e.code, occurredAt: e.occurred_at })), { ended: true, state: "completed" });
    steps.forEach((s, i) => counts.push({ variant: errors[i]!.variant!, step: s.step, runState: s.runState, calls: s.callsUntilRecovery ?? 0, errors: 1 }));
  }
  return counts;
}

describe("the verdict on records of the real runtime and the told classification", () => {
  it("finds the wording that makes a scripted model self-correct more", async () => {
    const experiment = defineExperiment("fare-wording", [
      { id: "control", text: "fare class no longer sold" },
      { id: "pick-another", text: "pick another fare class from the search_flights results" },
    ]);
    const counts = await runtimeExperiment(experiment, { control: 0.35, "pick-another": 0.6 }, 1200);
    const sums = variantSums(["control", "pick-another"], counts);
    expect(sums.reduce((n, s) => n + s.exposures, 0)).toBe(1200);
    expect(sums.every((s) => s.decided === s.exposures && s.recovered > 0)).toBe(true);
    expect(verdictOf(sums, GUARDS, EXPERIMENT_ALPHA)).toMatchObject({ kind: "winner", variant: "pick-another" });
  }, 60_000);
});
