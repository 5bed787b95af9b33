import type { Executor } from "../client";
import { formatDuration, formatUtc } from "@/lib/alerts/describe";
import { sloAlertLevelOf, sloBurnValue, type AlertTransition, type SloBurnFact } from "@/lib/alerts/evaluate";
import { sloLink, type NotificationDetails } from "@/lib/alerts/notification";
import { formatBurn, SLO_ALERTS } from "@/lib/slo/burn";
import { getSlo } from "./slos";
import { sloStatus } from "./slo-status";
import { sloBadCalls, sloToolsSince } from "./slo-counts";

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/**
 * What makes an SLO burn alert's change a message: the SLO, the level's two windows and their burn
 * rates against the threshold, the budget left, since when, and the bad calls of the long window
 * (codes, releases, environments, runs); for a resolution how long it fired and the rates now.
 */
export async function sloAlertDetails(db: Executor, fact: SloBurnFact | undefined, change: AlertTransition, firedAt: number | null, now: number): Promise<NotificationDetails> {
  const level = sloAlertLevelOf(change.key);
  const { long, short, threshold } = SLO_ALERTS[level];
  const burn = level === "page" ? "fast burn" : "slow burn";
  const thresholdText = `burn rate ${threshold}× or more over both ${long.label} and ${short.label} (${level})`;
  const slo = fact ? await getSlo(db, fact.id) : null;
  const resolved = change.status === "resolved";
  const durationMs = resolved && firedAt !== null ? now - firedAt : null;
  const lasted = durationMs === null ? "resolved" : `resolved after ${formatDuration(durationMs)}`;
  if (!slo || !fact) {
    const since = firedAt ?? now;
    return { value: `${lasted}; the SLO was deleted`, summary: `${burn} ${lasted}: the SLO was deleted; fired at ${formatUtc(since)}.`, threshold: thresholdText, since, durationMs, context: { codes: [], releases: [], environments: [], runs: [], firstAt: null } };
  }
  const from = (resolved ? (firedAt ?? now) : now) - long.ms;
  const tools = await sloToolsSince(db, slo.project, slo.tools, from);
  const bad = await sloBadCalls(db, { project: slo.project, tools, from, to: now, countDeclines: slo.countDeclines, countRecovered: slo.countRecovered });
  const status = await sloStatus(db, slo, now);
  const context = { codes: bad.codes, releases: bad.releases, environments: bad.environments, runs: bad.runs.map((r) => r.runId), firstAt: bad.firstAt };
  const subject = `SLO "${slo.name}" (${slo.tools.join(", ")}; ${pct(slo.objective)} over ${slo.windowDays} d)`;
  const codes = bad.codes.length > 0 ? `; codes ${bad.codes.map((c) => `\`${c.code}\` (${c.count})`).join(", ")}` : "";
  const where = [bad.releases.length > 0 ? `release ${bad.releases.join(", ")}` : null, bad.environments.length > 0 ? `environment ${bad.environments.join(", ")}` : null].filter((x) => x !== null);
  const whereText = where.length > 0 ? `; ${where.join("; ")}` : "";
  const budget = `budget left ${pct(status.budgetRemaining)}`;
  const nowRates = `now ${formatBurn(fact.rates[long.key])} over ${long.label} and ${formatBurn(fact.rates[short.key])} over ${short.label}`;
  if (resolved) {
    const since = firedAt ?? now;
    const summary = `${subject}: ${burn} ${lasted}, no longer ${thresholdText}; ${nowRates}; ${budget}${codes}${whereText}; fired at ${formatUtc(since)}.`;
    return { value: `${lasted}; ${nowRates}`, summary, threshold: thresholdText, since, durationMs, context, link: sloLink(slo.project, slo.id) };
  }
  const since = bad.firstAt ?? now;
  const summary = `${subject}: ${sloBurnValue(level, fact.rates)}, crossing ${thresholdText}; ${budget}${codes}${whereText}; since ${formatUtc(since)}.`;
  return { value: change.value, summary, threshold: thresholdText, since, durationMs: null, context, link: sloLink(slo.project, slo.id) };
}
