import type { SloBudgetPoint } from "@/lib/contracts/slos";

const HOUR = 3_600_000;

/**
 * The budget over the window, hour by hour: each point is the share of the window's whole budget
 * (allowed bad calls = (1 − objective) × the window's calls) still left once that hour had passed,
 * so the line falls where the budget was spent and ends at the budget left now. Hours without
 * calls are zeros: they spend nothing. `hours` holds the hours that had calls (start, calls, bad).
 */
export function budgetSeries(hours: readonly { at: number; calls: number; bad: number }[], objective: number, from: number, now: number): SloBudgetPoint[] {
  const byHour = new Map(hours.map((h) => [h.at, h]));
  const totalCalls = hours.reduce((n, h) => n + h.calls, 0);
  const allowed = (1 - objective) * totalCalls;
  const out: SloBudgetPoint[] = [];
  let spent = 0;
  for (let at = Math.floor(from / HOUR) * HOUR; at < now; at += HOUR) {
    const h = byHour.get(at);
    spent += h?.bad ?? 0;
    out.push({ at, calls: h?.calls ?? 0, bad: h?.bad ?? 0, budgetRemaining: allowed === 0 ? 1 : Math.round((1 - spent / allowed) * 1e9) / 1e9 });
  }
  return out;
}
