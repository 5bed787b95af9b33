import type { Comparison, GuardBounds, GuardMetric, Verdict } from "@/lib/contracts/experiments";
import { mixtureTest, proportionVariance } from "./mixture";
import { TAU2, callsMeanVariance, type VariantSums } from "./stats";

/** Decided errors every variant needs before any verdict or guard: below it the normal approximation is poor. */
export const MIN_DECIDED_PER_VARIANT = 50;

type Metric = Comparison["metric"];

/** Estimate and variance of one variant on one metric; null when the variant has no data for it. */
function arm(s: VariantSums, metric: Metric): { value: number; variance: number } | null {
  switch (metric) {
    case "selfCorrection":
      return s.decided ? { value: s.recovered / s.decided, variance: proportionVariance(s.recovered, s.decided) } : null;
    case "repeatRate":
      return s.repeatJudged ? { value: s.repeated / s.repeatJudged, variance: proportionVariance(s.repeated, s.repeatJudged) } : null;
    case "runFailedRate":
      return s.decided ? { value: s.runsFailed / s.decided, variance: proportionVariance(s.runsFailed, s.decided) } : null;
    case "callsUntilRecovery":
      return s.recoveries >= 2 ? { value: s.callsUntilRecoveryTotal / s.recoveries, variance: callsMeanVariance(s) } : null;
  }
}

/** One challenger against the control on `metric`, tested against `nullValue` (0, or a guard's bound). */
export function compare(control: VariantSums, challenger: VariantSums, metric: Metric, alpha: number, nullValue = 0): Comparison | null {
  const a = arm(control, metric);
  const b = arm(challenger, metric);
  if (!a || !b) return null;
  const difference = b.value - a.value;
  const t = mixtureTest({ estimate: difference, variance: a.variance + b.variance, alpha, tau2: TAU2[metric], nullValue });
  return { variant: challenger.id, metric, difference, interval: [t.interval[0], t.interval[1]], pValue: t.pValue, rejected: t.rejected };
}

/** Every challenger against the control (the first variant) on every metric, at the Bonferroni level α / challengers. */
export function comparisons(sums: readonly VariantSums[], alpha: number): Comparison[] {
  const [control, ...challengers] = sums;
  if (!control || challengers.length === 0) return [];
  const level = alpha / challengers.length;
  const out: Comparison[] = [];
  for (const c of challengers) {
    for (const metric of ["selfCorrection", "repeatRate", "runFailedRate", "callsUntilRecovery"] as const) {
      const r = compare(control, c, metric, level);
      if (r) out.push(r);
    }
  }
  return out;
}

const percent = (x: number) => `${Math.round(x * 1000) / 10} points`;

/**
 * The verdict at this look (docs/experiments.md). While any variant has fewer than
 * {@link MIN_DECIDED_PER_VARIANT} decided errors: `collecting`. Then a guard first: a challenger
 * whose guard metric is worse than the control's by more than its bound, with the bound itself
 * rejected by the mSPRT, trips it. Then the primary metric, each challenger against the control at
 * α / challengers: the best challenger found better wins; when every challenger is found worse, the
 * control wins; otherwise `undecided`.
 */
export function verdictOf(sums: readonly VariantSums[], guards: GuardBounds, alpha: number): Verdict {
  const [control, ...challengers] = sums;
  if (!control || challengers.length === 0) return { kind: "undecided", variant: null, metric: null, message: "an experiment needs two wordings" };
  const short = sums.filter((s) => s.decided < MIN_DECIDED_PER_VARIANT);
  if (short.length > 0) {
    return { kind: "collecting", variant: null, metric: null, message: `collecting: every wording needs ${MIN_DECIDED_PER_VARIANT} decided errors (${short.map((s) => `${s.id} has ${s.decided}`).join(", ")})` };
  }
  const level = alpha / challengers.length;
  for (const c of challengers) {
    for (const metric of ["repeatRate", "runFailedRate", "callsUntilRecovery"] as const satisfies readonly GuardMetric[]) {
      const bound = guards[metric];
      const r = compare(control, c, metric, level, bound);
      if (r && r.rejected && r.difference > bound) {
        const shown = metric === "callsUntilRecovery" ? `${Math.round(r.difference * 100) / 100} calls` : percent(r.difference);
        return { kind: "guard_tripped", variant: c.id, metric, message: `${c.id} worsens ${metric} by ${shown} against ${control.id}, beyond the bound of ${bound}` };
      }
    }
  }
  const primary = challengers.map((c) => compare(control, c, "selfCorrection", level)).filter((r): r is Comparison => r !== null);
  const better = primary.filter((r) => r.rejected && r.difference > 0).sort((x, y) => y.difference - x.difference || (x.variant < y.variant ? -1 : 1));
  const best = better[0];
  if (best) return { kind: "winner", variant: best.variant, metric: "selfCorrection", message: `${best.variant} self-corrects ${percent(best.difference)} more often than ${control.id}` };
  if (primary.length === challengers.length && primary.every((r) => r.rejected && r.difference < 0)) {
    return { kind: "winner", variant: control.id, metric: "selfCorrection", message: `${control.id} self-corrects more often than every challenger` };
  }
  return { kind: "undecided", variant: null, metric: null, message: "no difference found yet at this level" };
}
