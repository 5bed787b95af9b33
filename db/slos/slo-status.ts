import type { Executor } from "../client";
import { listSlos, getSlo, sloAlertRuleIds } from "./slos";
import { sloBadCalls, sloToolsSince } from "./slo-counts";
import { sloCallHours, sloCallWindows } from "./slo-window-counts";
import type { Slo, SloCounts, SloDetail, SloStatus } from "@/lib/contracts/slos";
import { BURN_WINDOWS_MS, budgetRemaining, burnRate, countCalls, sloState, type BurnRates, type BurnWindowKey } from "@/lib/slo/burn";
import { budgetSeries } from "@/lib/slo/budget-series";

const DAY = 86_400_000;

const windowStart = (slo: Slo, now: number) => now - slo.windowDays * DAY;

const BURN_KEYS = Object.keys(BURN_WINDOWS_MS) as BurnWindowKey[];

/** The burn rates of an SLO over its alert windows ending at `now` (6 h of calls read). */
export async function sloBurnRates(db: Executor, slo: Slo, now: number): Promise<BurnRates> {
  const tools = await sloToolsSince(db, slo.project, slo.tools, now - BURN_WINDOWS_MS.h6);
  const starts = Object.fromEntries(BURN_KEYS.map((k) => [k, now - BURN_WINDOWS_MS[k]])) as Record<BurnWindowKey, number>;
  const groups = await sloCallWindows(db, { project: slo.project, tools, from: starts.h6, to: now }, starts);
  return Object.fromEntries(BURN_KEYS.map((k) => [k, burnRate(countCalls(groups[k], slo), slo.objective)])) as BurnRates;
}

/** An SLO's standing from its window's counts and burn rates. */
async function standing(db: Executor, slo: Slo, window: SloCounts, burnRates: BurnRates): Promise<SloStatus> {
  const [ruleId] = await sloAlertRuleIds(db, slo.project, slo.id);
  return {
    slo,
    state: sloState(window, slo.objective, burnRates),
    window,
    sli: window.calls === 0 ? null : (window.calls - window.bad) / window.calls,
    budgetRemaining: budgetRemaining(window, slo.objective),
    burnRates,
    ruleId: ruleId ?? null,
  };
}

/** An SLO's standing at `now`: the window's counts, budget left, burn rates and state, from one scan of the window. */
export async function sloStatus(db: Executor, slo: Slo, now: number): Promise<SloStatus> {
  const from = windowStart(slo, now);
  const tools = await sloToolsSince(db, slo.project, slo.tools, from);
  const starts = { window: from, ...(Object.fromEntries(BURN_KEYS.map((k) => [k, now - BURN_WINDOWS_MS[k]])) as Record<BurnWindowKey, number>) };
  const groups = await sloCallWindows(db, { project: slo.project, tools, from, to: now }, starts);
  const burnRates = Object.fromEntries(BURN_KEYS.map((k) => [k, burnRate(countCalls(groups[k], slo), slo.objective)])) as BurnRates;
  return standing(db, slo, countCalls(groups.window, slo), burnRates);
}

/** Every SLO of a project with its standing at `now`. */
export async function listSloStatuses(db: Executor, project: string, now: number): Promise<SloStatus[]> {
  const out: SloStatus[] = [];
  for (const slo of await listSlos(db, project)) out.push(await sloStatus(db, slo, now));
  return out;
}

/** One SLO of a project: its standing, its budget hour by hour over the window and the failures that spent it; null when there is none. */
export async function sloDetail(db: Executor, project: string, id: number, now: number): Promise<Omit<SloDetail, "at"> | null> {
  const slo = await getSlo(db, id);
  if (!slo || slo.project !== project) return null;
  const from = windowStart(slo, now);
  const tools = await sloToolsSince(db, slo.project, slo.tools, from);
  // The window's counts are the sum of its hours (each hour holds only calls from `from` on); the burn rates read the last 6 h again.
  const buckets = await sloCallHours(db, { project, tools, from, to: now });
  const status = await standing(db, slo, countCalls(buckets.flatMap((b) => b.groups), slo), await sloBurnRates(db, slo, now));
  const hours = buckets.map((b) => ({ at: b.at, ...countCalls(b.groups, slo) }));
  const bad = await sloBadCalls(db, { project, tools, from, to: now, countDeclines: slo.countDeclines, countRecovered: slo.countRecovered });
  return { status, budget: budgetSeries(hours, slo.objective, from, now), failures: { codes: bad.codes, tools: bad.tools, runs: bad.runs } };
}
