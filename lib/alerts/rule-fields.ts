import { alertRuleParamsSchema, type AlertRuleParams } from "@/lib/contracts/alerts";
import type { AlertRuleKind } from "@/lib/contracts/alert-enums";
import type { DriftKind, DriftSeverity } from "@/lib/contracts/drift";
import { thresholdOf } from "./describe";

/** A rule form's fields as typed: text as entered, the failure-rate threshold in percent. */
export interface RuleFields {
  tool: string;
  windowMinutes: string;
  /** Failure rate, in percent of calls (0–100 exclusive). */
  thresholdPercent: string;
  minCalls: string;
  perMinute: string;
  perCall: string;
  factor: string;
  minCount: string;
  /** Failed-closed attempts that fire the rule. */
  count: string;
  minSeverity: DriftSeverity;
  driftKinds: DriftKind[];
  /** The SLO a burn-rate rule watches (its id, as the select holds it). */
  slo: string;
}

/** What a new rule of each kind starts from. */
export const DEFAULT_FIELDS: RuleFields = {
  tool: "",
  windowMinutes: "10",
  thresholdPercent: "50",
  minCalls: "20",
  perMinute: "30",
  perCall: "",
  factor: "3",
  minCount: "5",
  count: "3",
  minSeverity: "high",
  driftKinds: [],
  slo: "",
};

const text = (n: number | undefined) => (n === undefined ? "" : String(n));
// 0.1 + 0.2 style noise never reaches the form: percent is shown to 4 decimals at most.
const percent = (fraction: number) => String(Math.round(fraction * 1_000_000) / 10_000);

/** The fields that show a rule's params (defaults for what its kind does not use). */
export function fieldsFromParams(p: AlertRuleParams): RuleFields {
  const f: RuleFields = { ...DEFAULT_FIELDS, driftKinds: [] };
  if ("tool" in p) f.tool = p.tool ?? "";
  if ("windowMinutes" in p) f.windowMinutes = text(p.windowMinutes);
  switch (p.kind) {
    case "drift":
      return { ...f, minSeverity: p.minSeverity, driftKinds: [...(p.kinds ?? [])] };
    case "failure_rate":
      return { ...f, thresholdPercent: percent(p.threshold), minCalls: text(p.minCalls) };
    case "retry_storm":
      return { ...f, perMinute: text(p.perMinute), perCall: text(p.perCall) };
    case "refusal_spike":
      return { ...f, factor: text(p.factor), minCount: text(p.minCount) };
    case "failed_closed":
      return { ...f, count: text(p.threshold) };
    case "new_code":
    case "issue_regressed":
      return f;
    case "slo_burn":
      return { ...f, slo: String(p.slo) };
  }
}

/** Which form field each params path is typed in, so an issue lands next to its input. */
const FIELD_OF: Record<string, keyof RuleFields> = {
  tool: "tool",
  windowMinutes: "windowMinutes",
  threshold: "thresholdPercent",
  minCalls: "minCalls",
  perMinute: "perMinute",
  perCall: "perCall",
  factor: "factor",
  minCount: "minCount",
  minSeverity: "minSeverity",
  kinds: "driftKinds",
  slo: "slo",
};

export type RuleFieldsResult = { ok: true; params: AlertRuleParams } | { ok: false; issues: { field: keyof RuleFields | "form"; message: string }[] };

/**
 * The params the fields of a kind stand for, checked with the API's own schema; a number that does
 * not parse is named as such rather than passed on as NaN.
 */
export function paramsFromFields(kind: AlertRuleKind, f: RuleFields): RuleFieldsResult {
  const issues: { field: keyof RuleFields | "form"; message: string }[] = [];
  const num = (field: keyof RuleFields, optional = false): number | undefined => {
    const raw = String(f[field]).trim();
    if (raw === "") {
      if (!optional) issues.push({ field, message: "required" });
      return undefined;
    }
    const n = Number(raw);
    if (!Number.isFinite(n)) issues.push({ field, message: "not a number" });
    return n;
  };
  const tool = f.tool.trim() === "" ? undefined : f.tool.trim();
  let raw: Record<string, unknown>;
  switch (kind) {
    case "new_code":
    case "issue_regressed":
      raw = { kind, tool };
      break;
    case "drift":
      raw = { kind, minSeverity: f.minSeverity, kinds: f.driftKinds.length > 0 ? f.driftKinds : undefined };
      break;
    case "failure_rate": {
      const pct = num("thresholdPercent");
      raw = { kind, tool, windowMinutes: num("windowMinutes"), threshold: pct === undefined ? undefined : pct / 100, minCalls: num("minCalls") };
      break;
    }
    case "retry_storm":
      raw = { kind, tool, windowMinutes: num("windowMinutes"), perMinute: num("perMinute", true), perCall: num("perCall", true) };
      break;
    case "refusal_spike":
      raw = { kind, tool, windowMinutes: num("windowMinutes"), factor: num("factor"), minCount: num("minCount") };
      break;
    case "failed_closed":
      raw = { kind, tool, windowMinutes: num("windowMinutes"), threshold: num("count") };
      break;
    case "slo_burn":
      raw = { kind, slo: num("slo") };
      break;
  }
  if (issues.length > 0) return { ok: false, issues };
  const parsed = alertRuleParamsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, params: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? "");
      const field = kind === "failed_closed" && key === "threshold" ? "count" : (FIELD_OF[key] ?? "form");
      // The schema speaks in fractions; the form in percent.
      const message = field === "thresholdPercent" ? "between 0 and 100 (exclusive)" : i.message;
      return { field, message };
    }),
  };
}

/** A rule's condition as a person reads it in the list: the threshold, and which tools (or which SLO, by name when known) it watches. */
export function describeRuleParams(p: AlertRuleParams, sloName?: string): string {
  if (p.kind === "slo_burn") return `${thresholdOf(p)}, for SLO ${sloName === undefined ? `#${p.slo}` : `“${sloName}”`}`;
  const where = p.kind === "drift" || p.kind === "new_code" || p.kind === "issue_regressed" ? "" : p.tool ? `, on \`${p.tool}\`` : ", on every tool";
  return `${thresholdOf(p)}${where}`;
}
