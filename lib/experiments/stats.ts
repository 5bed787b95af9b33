import type { VariantStats } from "@/lib/contracts/experiments";
import { RECOVERY_STEPS, type ToldRunState, type ToldStep } from "@/lib/contracts/told";
import { mixtureHalfWidth, proportionVariance } from "./mixture";

/** One count of an experiment's surfaced errors: of `variant`, ended in `step` with the run in `runState`, after `calls` calls. */
export interface VariantCount {
  variant: string;
  step: ToldStep;
  runState: ToldRunState;
  /** Calls until recovery for recovered and replaced; 0 otherwise. */
  calls: number;
  errors: number;
}

/** The mixing variances τ² per metric: the effects each test is tuned to find (docs/experiments.md). */
export const TAU2 = { selfCorrection: 0.1 ** 2, repeatRate: 0.1 ** 2, runFailedRate: 0.1 ** 2, callsUntilRecovery: 1 } as const;

/** Sums that the metrics and the tests need, per variant; the squared calls give the variance of the mean. */
export interface VariantSums extends Omit<VariantStats, "selfCorrection" | "repeatRate" | "runFailedRate" | "callsUntilRecovery"> {
  callsSquaredTotal: number;
}

/** Adds up `counts` per variant, in the order of `variants` (a variant without records has zeros). */
export function variantSums(variants: readonly string[], counts: readonly VariantCount[]): VariantSums[] {
  const by = new Map<string, VariantSums>(
    variants.map((id) => [id, { id, exposures: 0, decided: 0, recovered: 0, repeated: 0, repeatJudged: 0, runsFailed: 0, recoveries: 0, callsUntilRecoveryTotal: 0, callsSquaredTotal: 0 }]),
  );
  for (const c of counts) {
    const s = by.get(c.variant);
    if (!s || c.errors <= 0) continue;
    s.exposures += c.errors;
    if (c.step === "pending") continue;
    s.decided += c.errors;
    if (c.step !== "unknown") s.repeatJudged += c.errors;
    if (c.step === "repeated") s.repeated += c.errors;
    if (c.runState === "failed") s.runsFailed += c.errors;
    if (RECOVERY_STEPS.includes(c.step)) {
      s.recovered += c.errors;
      s.recoveries += c.errors;
      s.callsUntilRecoveryTotal += c.calls * c.errors;
      s.callsSquaredTotal += c.calls * c.calls * c.errors;
    }
  }
  return variants.map((id) => by.get(id)!);
}

/** The sample variance of the mean calls until recovery (0 when fewer than two recoveries). */
export function callsMeanVariance(s: Pick<VariantSums, "recoveries" | "callsUntilRecoveryTotal" | "callsSquaredTotal">): number {
  const n = s.recoveries;
  if (n < 2) return Number.POSITIVE_INFINITY;
  const mean = s.callsUntilRecoveryTotal / n;
  const sampleVariance = Math.max(0, (s.callsSquaredTotal - n * mean * mean) / (n - 1));
  // A floor of one call² / n: identical counts (all recoveries at one call) would otherwise claim certainty.
  return Math.max(sampleVariance, 0.25) / n;
}

const rate = (part: number, whole: number, alpha: number, tau2: number) => {
  if (whole === 0) return null;
  const value = part / whole;
  const half = mixtureHalfWidth(proportionVariance(part, whole), alpha, tau2);
  return { value, interval: [Math.max(0, value - half), Math.min(1, value + half)] as [number, number] };
};

/** Each variant's rates with their always-valid (1 − α) intervals. */
export function variantStats(sums: readonly VariantSums[], alpha: number): VariantStats[] {
  return sums.map(({ callsSquaredTotal: _sq, ...s }) => {
    const mean = s.recoveries > 0 ? s.callsUntilRecoveryTotal / s.recoveries : null;
    const half = mixtureHalfWidth(callsMeanVariance({ ...s, callsSquaredTotal: _sq }), alpha, TAU2.callsUntilRecovery);
    return {
      ...s,
      selfCorrection: rate(s.recovered, s.decided, alpha, TAU2.selfCorrection),
      repeatRate: rate(s.repeated, s.repeatJudged, alpha, TAU2.repeatRate),
      runFailedRate: rate(s.runsFailed, s.decided, alpha, TAU2.runFailedRate),
      callsUntilRecovery: mean === null ? null : { value: mean, interval: Number.isFinite(half) ? [Math.max(1, mean - half), mean + half] : null },
    };
  });
}
