import type { TimeWindow } from "@/lib/contracts/filters";
import type { OutcomePoint } from "@/lib/contracts/overview";
import { OUTCOME_ORDER } from "./outcomes";
import { fillBuckets } from "./time-buckets";

export interface OutcomeChartData {
  /** Outcomes present in the window, in legend order; declined and refused are separate series. */
  series: string[];
  rows: ({ t: number; gap: boolean } & Record<string, number | null | boolean>)[];
  totals: Record<string, number>;
}

/** Stacked outcome bars per bucket: every bucket present, zeros where nothing happened, gaps in the future. */
export function prepareOutcomeSeries(points: readonly OutcomePoint[], window: TimeWindow, now: number): OutcomeChartData {
  const totals: Record<string, number> = {};
  for (const p of points) totals[p.outcome] = (totals[p.outcome] ?? 0) + p.attempts;
  const series = OUTCOME_ORDER.filter((o) => (totals[o] ?? 0) > 0);
  for (const o of Object.keys(totals)) if (!series.includes(o)) series.push(o);
  const rows = fillBuckets(points, window, (p) => p.outcome, (p) => p.attempts, series, now).map((b) => ({ t: b.t, gap: b.gap, ...b.values }));
  return { series, rows, totals };
}
