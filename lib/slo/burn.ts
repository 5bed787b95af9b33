import type { SloCounts, SloState } from "@/lib/contracts/slos";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The two alerts of the SRE workbook's multiwindow, multi-burn-rate recipe: each fires only while
 * both its long window (how much budget went) and its short window (it is still going) burn at or
 * above the threshold, so it starts fast and stops soon after the burning stops.
 */
export const SLO_ALERTS = {
  page: { long: { key: "h1", ms: HOUR, label: "1 h" }, short: { key: "m5", ms: 5 * MINUTE, label: "5 min" }, threshold: 14.4 },
  ticket: { long: { key: "h6", ms: 6 * HOUR, label: "6 h" }, short: { key: "m30", ms: 30 * MINUTE, label: "30 min" }, threshold: 6 },
} as const;
export type SloAlertLevel = keyof typeof SLO_ALERTS;
export type BurnWindowKey = "m5" | "m30" | "h1" | "h6";
export type BurnRates = Record<BurnWindowKey, number | null>;

/** The burn windows' lengths, longest first. */
export const BURN_WINDOWS_MS: Record<BurnWindowKey, number> = { h6: 6 * HOUR, h1: HOUR, m30: 30 * MINUTE, m5: 5 * MINUTE };

/** Final calls of one kind as the database groups them: did the call end in a failure, a decline, one the model recovered from. */
export interface SloCallGroup {
  failed: boolean;
  declined: boolean;
  recovered: boolean;
  calls: number;
}

/**
 * Sorts final calls into good and bad under an SLO's switches. A call is bad when it ended in a
 * failure, unless it was a decline (and declines are not counted) or the model recovered from it
 * (and recoveries are not counted). A decline the model recovered from is left out when either
 * switch leaves it out, and reported once, as a decline.
 */
export function countCalls(groups: readonly SloCallGroup[], slo: { countDeclines: boolean; countRecovered: boolean }): SloCounts {
  const out: SloCounts = { calls: 0, bad: 0, declinesExcluded: 0, recoveredExcluded: 0 };
  for (const g of groups) {
    out.calls += g.calls;
    if (!g.failed) continue;
    if (g.declined && !slo.countDeclines) out.declinesExcluded += g.calls;
    else if (g.recovered && !slo.countRecovered) out.recoveredExcluded += g.calls;
    else out.bad += g.calls;
  }
  return out;
}

// Rates are rounded to 9 decimals: 1 − 0.995 is 0.0050000000000000044 in binary, which would put
// 72 bad calls in 1000 (exactly 14.4× at 99.5 %) a hair under the page threshold.
const clean = (x: number) => Math.round(x * 1e9) / 1e9;

/** How fast the budget burns: the bad share over the allowed bad share (1 spends exactly the budget over the window); null without calls. */
export function burnRate(counts: { calls: number; bad: number }, objective: number): number | null {
  if (counts.calls === 0) return null;
  return clean(counts.bad / counts.calls / (1 - objective));
}

/** The share of the window's budget left: 1 untouched, 0 spent, negative when overspent; 1 without calls (nothing spent). */
export function budgetRemaining(counts: { calls: number; bad: number }, objective: number): number {
  if (counts.calls === 0) return 1;
  return clean(1 - counts.bad / ((1 - objective) * counts.calls));
}

/** Which alerts hold: both windows of a level at or above its threshold (a window without calls burns nothing). */
export function burnAlerts(rates: BurnRates): Record<SloAlertLevel, boolean> {
  const holds = (level: SloAlertLevel) => {
    const { long, short, threshold } = SLO_ALERTS[level];
    return (rates[long.key] ?? 0) >= threshold && (rates[short.key] ?? 0) >= threshold;
  };
  return { page: holds("page"), ticket: holds("ticket") };
}

/** The SLO's state for the list: the most urgent of paging, ticketing, an exhausted budget. */
export function sloState(window: { calls: number; bad: number }, objective: number, rates: BurnRates): SloState {
  const alerts = burnAlerts(rates);
  if (alerts.page) return "page";
  if (alerts.ticket) return "ticket";
  if (window.calls === 0) return "no_data";
  return budgetRemaining(window, objective) <= 0 ? "exhausted" : "ok";
}

/** A burn rate as people read it: `14.4×`, `0.25×`; `no calls` for none. */
export function formatBurn(rate: number | null): string {
  if (rate === null) return "no calls";
  const rounded = rate >= 10 ? Math.round(rate * 10) / 10 : Math.round(rate * 100) / 100;
  return `${rounded}×`;
}
