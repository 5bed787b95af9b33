import { SLO_DEFAULTS, sloPatchSchema, type Slo } from "@/lib/contracts/slos";

/** An SLO form's fields as typed: tools as one comma-separated line, the objective in percent. */
export interface SloFields {
  name: string;
  tools: string;
  objectivePercent: string;
  windowDays: string;
  countDeclines: boolean;
  countRecovered: boolean;
}

export const DEFAULT_SLO_FIELDS: SloFields = { name: "", tools: "", objectivePercent: "99.5", windowDays: String(SLO_DEFAULTS.windowDays), countDeclines: false, countRecovered: false };

// Percent is shown to 4 decimals at most: 0.1 + 0.2 style noise never reaches the form.
const percent = (fraction: number) => String(Math.round(fraction * 1_000_000) / 10_000);

/** The fields that show an SLO. */
export function sloFieldsOf(slo: Slo): SloFields {
  return { name: slo.name, tools: slo.tools.join(", "), objectivePercent: percent(slo.objective), windowDays: String(slo.windowDays), countDeclines: slo.countDeclines, countRecovered: slo.countRecovered };
}

/** What an SLO is made of, as the API takes it. */
export interface SloDefinition {
  name: string;
  tools: string[];
  objective: number;
  windowDays: number;
  countDeclines: boolean;
  countRecovered: boolean;
}

export type SloFieldsResult = { ok: true; value: SloDefinition } | { ok: false; issues: Partial<Record<keyof SloFields, string>> };

/** The definition the fields stand for, checked with the API's own schema; each problem is named next to its field, in the form's units. */
export function sloFromFields(f: SloFields): SloFieldsResult {
  const issues: Partial<Record<keyof SloFields, string>> = {};
  const tools = f.tools
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  const objectivePercent = f.objectivePercent.trim() === "" ? NaN : Number(f.objectivePercent);
  const windowDays = f.windowDays.trim() === "" ? NaN : Number(f.windowDays);
  if (f.name.trim() === "") issues.name = "required";
  if (tools.length === 0) issues.tools = "at least one tool name or glob (search_*)";
  if (!(objectivePercent > 0 && objectivePercent < 100)) issues.objectivePercent = "a percentage between 0 and 100 (exclusive), e.g. 99.5";
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > 90) issues.windowDays = "whole days from 1 to 90";
  const value = { name: f.name.trim(), tools, objective: Math.round(objectivePercent * 10_000) / 1_000_000, windowDays, countDeclines: f.countDeclines, countRecovered: f.countRecovered };
  if (Object.keys(issues).length > 0) return { ok: false, issues };
  const parsed = sloPatchSchema.safeParse(value);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const key = String(i.path[0] ?? "");
      const field: keyof SloFields = key === "objective" ? "objectivePercent" : key === "tools" || key === "name" || key === "windowDays" ? key : "name";
      issues[field] ??= i.message;
    }
    return { ok: false, issues };
  }
  return { ok: true, value };
}
