import type { CodeAccumulator } from "./signature";

/** One change of a project's classification rule, as drift reads it: when, and the codes it concerned. */
export interface RuleEdit {
  ruleId: string;
  name: string;
  version: number;
  action: "created" | "updated" | "deleted";
  at: number;
  /** The code the rule set before the change (none for a creation) and after it (none for a deletion). */
  codes: string[];
}

/** What tells an absence finding (a code added, removed or renamed between releases) apart from a rule's doing. */
export interface RuleContext {
  /** Whether every span and final error of the code on the tool in the release was coded by a project's rule. */
  whollyRuled: (code: string, tool: string, release: string) => boolean;
  /** When rules that set (or had set) the code were created, edited or deleted. */
  editsOf: (code: string) => readonly number[];
}

/** The context of a project's accumulators and rule history. */
export function ruleContext(accumulators: readonly CodeAccumulator[], edits: readonly RuleEdit[]): RuleContext {
  const ruled = new Map<string, boolean>();
  for (const a of accumulators) ruled.set(`${a.code}\u0000${a.tool}\u0000${a.release}`, (a.ruled ?? 0) > 0 && (a.ruled ?? 0) >= a.spans + a.errors);
  const byCode = new Map<string, number[]>();
  for (const e of edits) for (const c of e.codes) byCode.set(c, [...(byCode.get(c) ?? []), e.at]);
  return { whollyRuled: (code, tool, release) => ruled.get(`${code}\u0000${tool}\u0000${release}`) ?? false, editsOf: (code) => byCode.get(code) ?? [] };
}

/**
 * Whether a code's appearance, disappearance or renaming between two releases is a rule's doing: the
 * code on each side that has it was set by a project's rules alone, and a rule that set it (before or
 * after the change) was created, edited or deleted after the earlier release was first seen. Stored
 * calls are re-classified but drift's accumulators keep what was folded, so the earlier release still
 * shows the codes of the rules as they were.
 */
export function ruleCausedAbsence(
  d: { kind: string; code: string; renamedTo: string | null; tool: string; from: string; to: string },
  fromFirstSeen: number,
  ctx: RuleContext,
): boolean {
  const sides: [string, string][] =
    d.kind === "removed" ? [[d.code, d.from]] : d.kind === "added" ? [[d.code, d.to]] : d.kind === "renamed" && d.renamedTo !== null ? [[d.code, d.from], [d.renamedTo, d.to]] : [];
  if (sides.length === 0 || !sides.every(([code, release]) => ctx.whollyRuled(code, d.tool, release))) return false;
  return sides.some(([code]) => ctx.editsOf(code).some((at) => at >= fromFirstSeen));
}

/** A rule change as one line of a code's history: `rule “Name” edited to v2 at 2027-03-01T10:00:00.000Z`. */
export function ruleEditText(e: RuleEdit): string {
  const at = new Date(e.at).toISOString();
  if (e.action === "created") return `rule “${e.name}” created as v${e.version} at ${at}`;
  if (e.action === "deleted") return `rule “${e.name}” deleted at ${at}`;
  return `rule “${e.name}” edited to v${e.version} at ${at}`;
}
