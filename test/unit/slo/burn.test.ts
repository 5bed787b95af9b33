// The SLO math, pure: sorting calls into good and bad under the switches, burn rates, budget left,
// the two multiwindow alerts at and around their thresholds, tool globs, the budget series and the
// replay the rule preview uses.
import { describe, expect, it } from "vitest";
import { budgetRemaining, burnAlerts, burnRate, countCalls, formatBurn, sloState, type BurnRates } from "@/lib/slo/burn";
import { budgetSeries } from "@/lib/slo/budget-series";
import { replaySloBurn } from "@/lib/slo/burn-replay";
import { coveredTools, toolMatches } from "@/lib/slo/tool-patterns";

const HOUR = 3_600_000;
const MIN = 60_000;
const rates = (r: Partial<BurnRates>): BurnRates => ({ m5: null, m30: null, h1: null, h6: null, ...r });

describe("countCalls", () => {
  const groups = [
    { failed: false, declined: false, recovered: false, calls: 10 },
    { failed: true, declined: false, recovered: false, calls: 4 },
    { failed: true, declined: true, recovered: false, calls: 3 },
    { failed: true, declined: false, recovered: true, calls: 2 },
    { failed: true, declined: true, recovered: true, calls: 1 },
  ];
  it("leaves declines and recovered failures out of bad by default, and counts each switch's share", () => {
    expect(countCalls(groups, { countDeclines: false, countRecovered: false })).toEqual({ calls: 20, bad: 4, declinesExcluded: 4, recoveredExcluded: 2 });
    expect(countCalls(groups, { countDeclines: true, countRecovered: false })).toEqual({ calls: 20, bad: 7, declinesExcluded: 0, recoveredExcluded: 3 });
    expect(countCalls(groups, { countDeclines: false, countRecovered: true })).toEqual({ calls: 20, bad: 6, declinesExcluded: 4, recoveredExcluded: 0 });
    expect(countCalls(groups, { countDeclines: true, countRecovered: true })).toEqual({ calls: 20, bad: 10, declinesExcluded: 0, recoveredExcluded: 0 });
  });
});

describe("burn rate and budget", () => {
  it("divides the bad share by the allowed share, exactly at the workbook's thresholds", () => {
    expect(burnRate({ calls: 1000, bad: 72 }, 0.995)).toBe(14.4);
    expect(burnRate({ calls: 1000, bad: 30 }, 0.995)).toBe(6);
    expect(burnRate({ calls: 1000, bad: 5 }, 0.995)).toBe(1);
    expect(burnRate({ calls: 400, bad: 0 }, 0.999)).toBe(0);
    expect(burnRate({ calls: 0, bad: 0 }, 0.99)).toBeNull();
  });
  it("answers the share of the budget left, below zero when overspent and whole without calls", () => {
    expect(budgetRemaining({ calls: 20, bad: 4 }, 0.75)).toBe(0.2);
    expect(budgetRemaining({ calls: 1000, bad: 10 }, 0.99)).toBe(0);
    expect(budgetRemaining({ calls: 1000, bad: 25 }, 0.99)).toBe(-1.5);
    expect(budgetRemaining({ calls: 0, bad: 0 }, 0.99)).toBe(1);
  });
  it("pages only when 1 h and 5 min both burn at 14.4× or more, tickets only when 6 h and 30 min both burn at 6× or more", () => {
    expect(burnAlerts(rates({ h1: 14.4, m5: 14.4 }))).toEqual({ page: true, ticket: false });
    expect(burnAlerts(rates({ h1: 14.4, m5: 14.3 }))).toEqual({ page: false, ticket: false });
    expect(burnAlerts(rates({ h1: 14.3, m5: 50 }))).toEqual({ page: false, ticket: false });
    expect(burnAlerts(rates({ h6: 6, m30: 6 }))).toEqual({ page: false, ticket: true });
    expect(burnAlerts(rates({ h6: 5.99, m30: 60 }))).toEqual({ page: false, ticket: false });
    expect(burnAlerts(rates({ h1: 20, m5: 20, h6: 7, m30: 9 }))).toEqual({ page: true, ticket: true });
    expect(burnAlerts(rates({ h1: 20, m5: null }))).toEqual({ page: false, ticket: false });
  });
  it("states the most urgent of page, ticket, exhausted, no data and ok", () => {
    expect(sloState({ calls: 100, bad: 0 }, 0.99, rates({ h1: 15, m5: 15, h6: 7, m30: 7 }))).toBe("page");
    expect(sloState({ calls: 100, bad: 0 }, 0.99, rates({ h6: 7, m30: 7 }))).toBe("ticket");
    expect(sloState({ calls: 100, bad: 1 }, 0.99, rates({}))).toBe("exhausted");
    expect(sloState({ calls: 100, bad: 0 }, 0.99, rates({}))).toBe("ok");
    expect(sloState({ calls: 0, bad: 0 }, 0.99, rates({}))).toBe("no_data");
  });
  it("words burn rates", () => {
    expect([formatBurn(14.4), formatBurn(16.666666667), formatBurn(0.254), formatBurn(null)]).toEqual(["14.4×", "16.7×", "0.25×", "no calls"]);
  });
});

describe("tool patterns", () => {
  it("matches names exactly and globs with * over any characters, case-sensitively", () => {
    expect(toolMatches(["search_*"], "search_web")).toBe(true);
    expect(toolMatches(["search_*"], "Search_web")).toBe(false);
    expect(toolMatches(["*.v2"], "a.b.v2")).toBe(true);
    expect(toolMatches(["*.v2"], "abv2")).toBe(false);
    expect(toolMatches(["book"], "booking")).toBe(false);
    expect(coveredTools(["search_*", "book"], ["search_web", "lookup", "search_docs"])).toEqual(["book", "search_docs", "search_web"]);
  });
});

describe("budgetSeries", () => {
  it("walks the window hour by hour, zeros where no call came, down to the budget left now", () => {
    const from = 10 * HOUR + 30 * MIN;
    const hours = [
      { at: 10 * HOUR, calls: 100, bad: 1 },
      { at: 12 * HOUR, calls: 100, bad: 3 },
    ];
    expect(budgetSeries(hours, 0.98, from, 13 * HOUR + 5 * MIN)).toEqual([
      { at: 10 * HOUR, calls: 100, bad: 1, budgetRemaining: 0.75 },
      { at: 11 * HOUR, calls: 0, bad: 0, budgetRemaining: 0.75 },
      { at: 12 * HOUR, calls: 100, bad: 3, budgetRemaining: 0 },
      { at: 13 * HOUR, calls: 0, bad: 0, budgetRemaining: 0 },
    ]);
  });
});

describe("replaySloBurn", () => {
  it("replays the page alert at 5-minute steps: fires when the 1 h window crosses, resolves when the 5 min window clears", () => {
    const t0 = 1000 * HOUR;
    // Ten calls every 5 minutes for 7 h, half of them bad for the 20 minutes from t0.
    const steps = [];
    for (let at = t0 - 7 * HOUR; at < t0 + HOUR; at += 5 * MIN) steps.push({ at, calls: 10, bad: at >= t0 && at < t0 + 20 * MIN ? 5 : 0 });
    const preview = replaySloBurn({ kind: "slo_burn", slo: 7 }, { id: 7, name: "search", tools: ["search_*"], objective: 0.99 }, steps, t0 - HOUR, t0 + HOUR);
    expect(preview.notifications).toBe(2);
    expect(preview.episodes).toEqual([{ tool: "search_*", code: "", value: "fast burn: 16.7× over 1 h and 50× over 5 min (threshold 14.4×)", firedAt: t0 + 20 * MIN, resolvedAt: t0 + 25 * MIN }]);
  });
});
