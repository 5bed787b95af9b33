import type { ToldStepCounts } from "@/lib/contracts/told";
import { TOLD_STEPS, type ToldStep } from "@/lib/contracts/told-step";
import { pctText } from "./rate-text";
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

export { repeatText, selfCorrectionText, type RateText } from "./rate-text";
