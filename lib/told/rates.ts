import { RECOVERY_STEPS, TOLD_RUN_STATES, TOLD_STEPS, type ToldRates, type ToldRunState, type ToldStep, type ToldStepCounts } from "@/lib/contracts/told";

/** One count of surfaced errors: how many ended in `step`, with their run in `runState`, after `calls` calls (recoveries only). */
export interface ToldCount {
  step: ToldStep;
  runState: ToldRunState;
  /** The model's calls until the recovering one; 0 for every step but recovered and replaced. */
  calls: number;
  errors: number;
}

/** Every step with its count, zeros included, in the order of {@link TOLD_STEPS}. */
export function stepCounts(counts: readonly ToldCount[]): ToldStepCounts {
  const by = new Map<ToldStep, number>(TOLD_STEPS.map((s) => [s, 0]));
  for (const c of counts) by.set(c.step, (by.get(c.step) ?? 0) + c.errors);
  return TOLD_STEPS.map((step) => ({ step, errors: by.get(step) ?? 0 }));
}

/** The median of a histogram (value → count); the mean of the two middle values for an even total. */
export function histogramMedian(histogram: ReadonlyMap<number, number>): number | null {
  const entries = [...histogram].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const [value, n] of entries) {
      seen += n;
      if (rank < seen) return value;
    }
    return entries[entries.length - 1]![0];
  };
  return total % 2 === 1 ? valueAt((total - 1) / 2) : (valueAt(total / 2 - 1) + valueAt(total / 2)) / 2;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * The rates of a set of surfaced errors (docs/after-told.md): the self-correction rate (recovered or
 * replaced, of the decided ones), the repeat rate (repeated, of those whose repeat could be judged:
 * decided and not unknown), the median number of calls until recovery, and the final state of the
 * runs of the decided ones. Pending errors count as surfaced only.
 */
export function toldRates(counts: readonly ToldCount[]): ToldRates {
  let surfaced = 0;
  let pending = 0;
  let recovered = 0;
  let repeated = 0;
  let unknown = 0;
  const calls = new Map<number, number>();
  const states = new Map<ToldRunState, number>(TOLD_RUN_STATES.map((s) => [s, 0]));
  for (const c of counts) {
    if (c.errors === 0) continue;
    surfaced += c.errors;
    if (c.step === "pending") {
      pending += c.errors;
      continue;
    }
    states.set(c.runState, (states.get(c.runState) ?? 0) + c.errors);
    if (RECOVERY_STEPS.includes(c.step)) {
      recovered += c.errors;
      calls.set(c.calls, (calls.get(c.calls) ?? 0) + c.errors);
    } else if (c.step === "repeated") repeated += c.errors;
    else if (c.step === "unknown") unknown += c.errors;
  }
  const decided = surfaced - pending;
  const repeatJudged = decided - unknown;
  return {
    surfaced,
    decided,
    recovered,
    selfCorrection: share(recovered, decided),
    repeated,
    repeatJudged,
    repeatRate: share(repeated, repeatJudged),
    medianCallsUntilRecovery: histogramMedian(calls),
    finalStates: TOLD_RUN_STATES.map((state) => ({ state, errors: states.get(state) ?? 0 })),
  };
}
