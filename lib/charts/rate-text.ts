import type { ToldRates } from "@/lib/contracts/told";

// Apart from ./told-shares.ts: the Codes table words its rates without the shares bar's legend.

/** A share as a whole percentage. */
export const pctText = (share: number) => `${Math.round(share * 100)}%`;

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
