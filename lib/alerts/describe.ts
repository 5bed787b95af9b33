import type { AlertRuleParams } from "@/lib/contracts/alerts";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { SLO_ALERTS } from "@/lib/slo/burn";
import type { ToolWindowFacts } from "./evaluate";

/** What the dashboard knows around an alert's tool (and code) in its window: the facts a person acts on. */
export interface AlertContext {
  /** Codes of the matching attempts, most frequent first (at most 3). */
  codes: { code: string; count: number }[];
  /** Releases of the matching attempts (the agent release, else the tool version), most frequent first. */
  releases: string[];
  environments: string[];
  /** Runs with the most matching attempts, latest first among equals (at most 3). */
  runs: string[];
  /** The first matching attempt of the window, epoch ms; null when none was found. */
  firstAt: number | null;
}

export const EMPTY_CONTEXT: AlertContext = { codes: [], releases: [], environments: [], runs: [], firstAt: null };

/**
 * Why an alert's figure and the Tools page can disagree for the same day: said next to every
 * measured figure (rules, history) so that nobody reconciles them by hand.
 */
export const ROLLING_WINDOW_NOTE =
  "A rule counts the calls of a rolling window that ends when it is checked (“in 10 min” = the 10 minutes before that moment); the Tools page and the charts count whole UTC hours. So for the same day the two can differ by the calls near the window’s edges.";

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toString()}%`;

/** The rule's condition in words: which threshold a measurement must cross. */
export function thresholdOf(params: AlertRuleParams): string {
  switch (params.kind) {
    case "new_code":
      return `a code first seen ${params.tool ? `on \`${params.tool}\`` : "on any tool"} after the rule was created`;
    case "drift":
      return `a drift finding of severity ${params.minSeverity} or above${params.kinds ? ` (${params.kinds.join(", ")})` : ""}`;
    case "failure_rate":
      return `more than ${pct(params.threshold)} of calls failed in ${params.windowMinutes} min (at least ${params.minCalls} calls)`;
    case "retry_storm": {
      const limits = [
        params.perMinute !== undefined ? `more than ${params.perMinute} retries a minute` : null,
        params.perCall !== undefined ? `more than ${params.perCall} retries per call` : null,
      ].filter((x) => x !== null);
      return `${limits.join(" or ")} in ${params.windowMinutes} min`;
    }
    case "refusal_spike":
      return `at least ${params.minCount} refusals or declines in ${params.windowMinutes} min and ${params.factor}× the ${params.windowMinutes} min before`;
    case "failed_closed":
      return `at least ${params.threshold} attempts failed closed in ${params.windowMinutes} min`;
    case "issue_regressed":
      return `a resolved issue failing again in a later release ${params.tool ? `on \`${params.tool}\`` : "on any tool"}`;
    case "slo_burn":
      return `an SLO burn rate of ${SLO_ALERTS.page.threshold}× or more over both ${SLO_ALERTS.page.long.label} and ${SLO_ALERTS.page.short.label} (page), or ${SLO_ALERTS.ticket.threshold}× or more over both ${SLO_ALERTS.ticket.long.label} and ${SLO_ALERTS.ticket.short.label} (ticket)`;
  }
}

/** A per-tool rule's measurement now, for the resolved message ("now 2% of 50 calls failed…"). */
export function measureOf(params: AlertRuleParams, t: ToolWindowFacts | undefined): string | null {
  if (params.kind === "new_code" || params.kind === "drift" || params.kind === "issue_regressed" || params.kind === "slo_burn") return null;
  if (!t || t.calls === 0) return `no calls in the last ${params.windowMinutes} min`;
  switch (params.kind) {
    case "failure_rate":
      return `${pct(t.failedCalls / t.calls)} of ${t.calls} calls failed in ${params.windowMinutes} min`;
    case "retry_storm":
      return `${t.retries} retries in ${params.windowMinutes} min`;
    case "refusal_spike":
      return `${t.refusals} refusals or declines in ${params.windowMinutes} min`;
    case "failed_closed":
      return `${t.failedClosed} attempts failed closed in ${params.windowMinutes} min`;
  }
}

/** A duration in words: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ""}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ""}`;
}

/** A UTC time to the minute, as on-call engineers compare it with their logs. */
export const formatUtc = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;

const list = (xs: readonly string[]) => (xs.length === 0 ? null : xs.join(", "));

/**
 * One sentence a person can act on: what crossed which threshold, for which tool, code, release and
 * environment, since when; for a resolved alert, how it stands now and how long it lasted.
 */
export function summaryOf(a: {
  status: AlertStatus;
  tool: string;
  code: string;
  value: string;
  threshold: string;
  context: AlertContext;
  since: number;
  durationMs: number | null;
  measureNow: string | null;
}): string {
  const subject = a.code ? `\`${a.tool}\` / \`${a.code}\`` : `\`${a.tool}\``;
  const codes = a.code ? null : list(a.context.codes.map((c) => `\`${c.code}\` (${c.count})`));
  const where = [
    codes ? `codes ${codes}` : null,
    list(a.context.releases) ? `release ${list(a.context.releases)}` : null,
    list(a.context.environments) ? `environment ${list(a.context.environments)}` : null,
  ].filter((x) => x !== null);
  const whereText = where.length > 0 ? `; ${where.join("; ")}` : "";
  if (a.status === "firing") return `${subject}: ${a.value}, crossing ${a.threshold}${whereText}; since ${formatUtc(a.since)}.`;
  const now = a.measureNow ? `; now ${a.measureNow}` : "";
  const lasted = a.durationMs === null ? "" : ` after ${formatDuration(a.durationMs)}`;
  return `${subject}: resolved${lasted}, no longer ${a.threshold}${now}${whereText}; fired at ${formatUtc(a.since)}.`;
}
