import type { AlertRuleParams } from "@/lib/contracts/alerts";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { DRIFT_SEVERITIES, type DriftKind, type DriftSeverity } from "@/lib/contracts/drift";
import { burnAlerts, formatBurn, SLO_ALERTS, type BurnRates, type SloAlertLevel } from "@/lib/slo/burn";

/** One tool's attempts in a rule's window (and the refusals of the window before it). */
export interface ToolWindowFacts {
  tool: string;
  calls: number;
  /** Calls whose last attempt failed (not retried afterwards). */
  failedCalls: number;
  /** Attempts the loop retried. */
  retries: number;
  /** Attempts refused (permission) or declined (the tool said no). */
  refusals: number;
  previousRefusals: number;
  /** Attempts whose `retry_after` was beyond the run's cap or deadline (decision failed_closed). */
  failedClosed: number;
}

/** A stored drift finding as a drift rule reads it (release, first sighting and example runs name it in the message). */
export interface DriftFact {
  findingId: string;
  tool: string;
  code: string;
  kind: DriftKind;
  severity: DriftSeverity;
  sentence: string;
  release?: string;
  firstSeen?: number;
  runs?: readonly string[];
}

/** An issue that is regressed now: when and in which release it failed again, and why, as its history says. */
export interface RegressedIssueFact {
  issueId: string;
  tool: string;
  code: string;
  /** The latest release it failed in (in the issue's release order): the one that brought it back. */
  release: string | null;
  /** The history's words: "failed again in 1.5.0 after it was resolved in the release after 1.4.1". */
  detail: string;
}

/** An SLO as its burn-rate rule reads it: what it covers and how fast it burns now. */
export interface SloBurnFact {
  id: number;
  name: string;
  tools: readonly string[];
  objective: number;
  rates: BurnRates;
}

/** What the evaluator reads, whichever the rule's kind (each kind uses its own part). */
export interface AlertFacts {
  tools: readonly ToolWindowFacts[];
  /** Codes first seen at or after the rule was created. */
  newCodes: readonly { tool: string; code: string; firstSeen: number }[];
  drift: readonly DriftFact[];
  /** Issues regressed now (only an `issue_regressed` rule loads them). */
  regressed?: readonly RegressedIssueFact[];
  /** For an SLO burn rule: its SLO (absent once the SLO is gone, which resolves what fired). */
  slo?: SloBurnFact;
}

/** An SLO burn alert's state key: the SLO's tools as the tool, and the SLO and level in the third part, like a drift finding. */
export const sloAlertKey = (slo: { id: number; tools: readonly string[] }, level: SloAlertLevel) => alertKey(slo.tools.join(", "), "", `slo:${slo.id}:${level}`);

/** The level an SLO burn alert's key names. */
export const sloAlertLevelOf = (key: string): SloAlertLevel => (key.endsWith(':page"]') ? "page" : "ticket");

/** What a burn-rate alert measured: both windows' burn rates against the level's threshold. */
export function sloBurnValue(level: SloAlertLevel, rates: BurnRates): string {
  const { long, short, threshold } = SLO_ALERTS[level];
  return `${level === "page" ? "fast" : "slow"} burn: ${formatBurn(rates[long.key])} over ${long.label} and ${formatBurn(rates[short.key])} over ${short.label} (threshold ${threshold}×)`;
}

/** A condition that holds now, for one key of a rule. */
export interface AlertCondition {
  key: string;
  tool: string;
  code: string;
  /** What was measured, worded for the notification. */
  value: string;
}

export interface AlertStateRow {
  key: string;
  status: AlertStatus;
}

export interface AlertTransition extends AlertCondition {
  status: AlertStatus;
}

/** A state key: JSON, so two different (tool, code) pairs never collide whatever their characters (PostgreSQL text cannot hold the NUL a separator would want). */
export const alertKey = (tool: string, code: string, finding?: string) => JSON.stringify(finding === undefined ? [tool, code] : [tool, code, finding]);

function keyParts(key: string): { tool: string; code: string } {
  const parts = JSON.parse(key) as unknown;
  return Array.isArray(parts) ? { tool: String(parts[0] ?? ""), code: String(parts[1] ?? "") } : { tool: "", code: "" };
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toString()}%`;
const round2 = (x: number) => (Math.round(x * 100) / 100).toString();

/** The conditions a rule's facts meet now. Rates fire strictly above their threshold; counts at or above theirs. */
export function conditionsOf(params: AlertRuleParams, facts: AlertFacts): AlertCondition[] {
  const tools = facts.tools.filter((t) => !("tool" in params) || params.tool === undefined || params.tool === t.tool);
  const perTool = (tool: string, value: string): AlertCondition => ({ key: alertKey(tool, ""), tool, code: "", value });
  switch (params.kind) {
    case "new_code":
      return facts.newCodes
        .filter((c) => params.tool === undefined || params.tool === c.tool)
        .map((c) => ({ key: alertKey(c.tool, c.code), tool: c.tool, code: c.code, value: `first seen at ${new Date(c.firstSeen).toISOString()}` }));
    case "drift": {
      const limit = DRIFT_SEVERITIES.indexOf(params.minSeverity);
      return facts.drift
        .filter((f) => DRIFT_SEVERITIES.indexOf(f.severity) <= limit && (params.kinds === undefined || params.kinds.includes(f.kind)))
        .map((f) => ({ key: alertKey(f.tool, f.code, f.findingId), tool: f.tool, code: f.code, value: `${f.severity}: ${f.sentence}` }));
    }
    case "issue_regressed":
      return (facts.regressed ?? [])
        .filter((r) => params.tool === undefined || params.tool === r.tool)
        .map((r) => ({ key: alertKey(r.tool, r.code), tool: r.tool, code: r.code, value: r.detail }));
    case "failure_rate":
      return tools
        .filter((t) => t.calls >= params.minCalls && t.failedCalls / t.calls > params.threshold)
        .map((t) => perTool(t.tool, `${pct(t.failedCalls / t.calls)} of ${t.calls} calls failed in ${params.windowMinutes} min`));
    case "retry_storm":
      return tools.flatMap((t) => {
        const perMinute = t.retries / params.windowMinutes;
        const perCall = t.calls === 0 ? 0 : t.retries / t.calls;
        const storm = (params.perMinute !== undefined && perMinute > params.perMinute) || (params.perCall !== undefined && perCall > params.perCall);
        return storm ? [perTool(t.tool, `${t.retries} retries in ${params.windowMinutes} min (${round2(perMinute)}/min, ${round2(perCall)} per call)`)] : [];
      });
    case "refusal_spike":
      return tools
        .filter((t) => t.refusals >= params.minCount && t.refusals >= params.factor * t.previousRefusals)
        .map((t) => perTool(t.tool, `${t.refusals} refusals or declines in ${params.windowMinutes} min, ${t.previousRefusals} in the window before`));
    case "failed_closed":
      return tools
        .filter((t) => t.failedClosed >= params.threshold)
        .map((t) => perTool(t.tool, `${t.failedClosed} attempts failed closed in ${params.windowMinutes} min`));
    case "slo_burn": {
      const slo = facts.slo;
      if (!slo || slo.id !== params.slo) return [];
      const holds = burnAlerts(slo.rates);
      return (["page", "ticket"] as const)
        .filter((level) => holds[level])
        .map((level) => ({ key: sloAlertKey(slo, level), tool: slo.tools.join(", "), code: "", value: sloBurnValue(level, slo.rates) }));
    }
  }
}

/**
 * What changes: a key that holds now and is not firing starts firing; a firing key that no longer
 * holds resolves. A key firing in both produces nothing, so a lasting condition is announced once.
 */
export function transitionsOf(conditions: readonly AlertCondition[], states: readonly AlertStateRow[]): AlertTransition[] {
  const firing = new Set(states.filter((s) => s.status === "firing").map((s) => s.key));
  const holding = new Set(conditions.map((c) => c.key));
  const started = conditions.filter((c) => !firing.has(c.key)).map((c) => ({ ...c, status: "firing" as const }));
  const ended = states
    .filter((s) => s.status === "firing" && !holding.has(s.key))
    .map((s) => {
      return { key: s.key, ...keyParts(s.key), value: "no longer holds", status: "resolved" as const };
    });
  return [...started, ...ended];
}

/** A muted rule, or one snoozed past `now`, is not evaluated: its states stay as they were until it wakes. */
export const ruleIsQuiet = (rule: { muted: boolean; snoozedUntil: number | null }, now: number) => rule.muted || (rule.snoozedUntil !== null && now < rule.snoozedUntil);
