import { PREVIEW_STEP_MS, replay, type RulePreview } from "@/lib/alerts/preview";
import type { AlertRuleParams } from "@/lib/contracts/alerts";
import { BURN_WINDOWS_MS, burnRate, type BurnRates, type BurnWindowKey } from "./burn";

/** One preview step's calls of an SLO, already sorted into good and bad under its switches. */
export interface SloStepCounts {
  /** Step start, a multiple of {@link PREVIEW_STEP_MS}. */
  at: number;
  calls: number;
  bad: number;
}

/**
 * How often an SLO's burn-rate rule would have paged and ticketed over [from, to]: at every
 * preview step the four windows ending there are summed from 5-minute counts (which must reach
 * 6 h before `from`) and judged by the evaluator itself.
 */
export function replaySloBurn(
  params: Extract<AlertRuleParams, { kind: "slo_burn" }>,
  slo: { id: number; name: string; tools: readonly string[]; objective: number },
  steps: readonly SloStepCounts[],
  from: number,
  to: number,
): RulePreview {
  const byStep = new Map(steps.map((s) => [s.at, s]));
  const sum = (start: number, end: number) => {
    const out = { calls: 0, bad: 0 };
    for (let at = start; at < end; at += PREVIEW_STEP_MS) {
      const s = byStep.get(at);
      if (s) {
        out.calls += s.calls;
        out.bad += s.bad;
      }
    }
    return out;
  };
  const keys = Object.keys(BURN_WINDOWS_MS) as BurnWindowKey[];
  return replay(params, from, to, (end) => ({
    tools: [],
    newCodes: [],
    drift: [],
    slo: { ...slo, rates: Object.fromEntries(keys.map((k) => [k, burnRate(sum(end - BURN_WINDOWS_MS[k], end), slo.objective)])) as BurnRates },
  }));
}
