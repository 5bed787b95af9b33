import type { SloBudgetPoint } from "@/lib/contracts/slos";

/** One hour of the budget chart: `t` its start, `left` the budget left after it in percent, `bad` its bad calls. */
export interface SloBudgetRow {
  t: number;
  left: number;
  bad: number;
  calls: number;
}

export interface SloBudgetChartData {
  rows: SloBudgetRow[];
  /** The y domain in percent: 0–100, widened below 0 when the budget was overspent. */
  domain: [number, number];
  /** No call in the whole window: nothing to draw, and nothing was spent (a zero, not a gap). */
  empty: boolean;
}

const pct = (x: number) => Math.round(x * 1000) / 10;

/** Prepares the budget series for the chart: percent to one decimal, a domain that shows overspending, emptiness when no call came. */
export function prepareSloBudget(points: readonly SloBudgetPoint[]): SloBudgetChartData {
  const rows = points.map((p) => ({ t: p.at, left: pct(p.budgetRemaining), bad: p.bad, calls: p.calls }));
  const lowest = rows.reduce((min, r) => Math.min(min, r.left), 0);
  // Overspending is shown to the next 50 % below, so the line never sits on the frame.
  const floor = lowest < 0 ? Math.floor(lowest / 50) * 50 : 0;
  return { rows, domain: [floor, 100], empty: rows.every((r) => r.calls === 0) };
}
