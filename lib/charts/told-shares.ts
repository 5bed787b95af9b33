import type { ToldRates, ToldStepCounts } from "@/lib/contracts/told";
import { TOLD_STEPS, type ToldStep } from "@/lib/contracts/told-step";
import { TOLD_STEP_LABELS } from "./told-labels";

/** One step of the shares bar and its legend. */
export interface ToldShare {
  step: ToldStep;
  label: string;
  errors: number;
  /** Share of all surfaced errors; 0 for an explicit zero. */
  share: number;
}

/** The shares bar of a set of surfaced errors: segments for the steps that occurred, a legend for every step. */
export interface ToldShares {
  /** Surfaced errors in all; 0 means no data at all (a gap, not a zero). */
  total: number;
  /** Steps with at least one error, in step order: the bar's segments. */
  segments: ToldShare[];
  /** Every step, zeros included (an explicit zero: the step could happen and did not). */
  legend: ToldShare[];
  /** The bar in words, for its accessible name. */
  description: string;
}

const pctText = (share: number) => `${Math.round(share * 100)}%`;

/** Prepares the stacked bar of next-step shares: explicit zeros in the legend, no bar at all when nothing was surfaced. */
export function toldShares(steps: ToldStepCounts): ToldShares {
  const by = new Map(steps.map((s) => [s.step, s.errors]));
  const total = steps.reduce((n, s) => n + s.errors, 0);
  const legend = TOLD_STEPS.map((step) => {
    const errors = by.get(step) ?? 0;
    return { step, label: TOLD_STEP_LABELS[step], errors, share: total > 0 ? errors / total : 0 };
  });
  const segments = legend.filter((l) => l.errors > 0);
  const description =
    total === 0
      ? "No error was surfaced to the model."
      : `${total} surfaced error${total === 1 ? "" : "s"}: ${legend.map((l) => `${l.label} ${l.errors}${l.errors > 0 ? ` (${pctText(l.share)})` : ""}`).join(", ")}.`;
  return { total, segments, legend, description };
}

/** A rate as the panel shows it: the value, or "—" with the reason there is none, and whether its sample is small. */
export interface RateText {
  text: string;
  /** Why there is no rate (no decided error yet, every error pending), or why it is shaky. */
  reason: string | null;
  lowSample: boolean;
}

/** The self-correction rate of a set of errors in words; below `minSample` decided errors it is shown but marked. */
export function selfCorrectionText(rates: Pick<ToldRates, "surfaced" | "decided" | "recovered" | "selfCorrection">, minSample: number): RateText {
  if (rates.surfaced === 0) return { text: "—", reason: "no error was surfaced to the model", lowSample: false };
  if (rates.selfCorrection === null) return { text: "—", reason: `all ${rates.surfaced} surfaced error${rates.surfaced === 1 ? " is" : "s are"} still pending (their runs have not ended)`, lowSample: false };
  const low = rates.decided < minSample;
  return {
    text: pctText(rates.selfCorrection),
    reason: low ? `only ${rates.decided} decided error${rates.decided === 1 ? "" : "s"} (fewer than ${minSample}): a small sample` : null,
    lowSample: low,
  };
}

/** The repeat rate in words ("—" with a reason when no repeat could be judged). */
export function repeatText(rates: Pick<ToldRates, "decided" | "repeatJudged" | "repeatRate">): RateText {
  if (rates.repeatRate === null) {
    return { text: "—", reason: rates.decided === 0 ? "no decided error yet" : "no arguments hash to tell a repeat from a change", lowSample: false };
  }
  return { text: pctText(rates.repeatRate), reason: null, lowSample: false };
}
