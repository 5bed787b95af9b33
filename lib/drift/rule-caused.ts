import type { CodeAccumulator } from "./signature";

/** A change of one rule (a new version) or of the whole classification (a reorder, a built-in pack switch). */
export type RuleEditAction = "created" | "updated" | "deleted" | "reordered" | "builtin_on" | "builtin_off";

/** One change of a project's classification, as drift reads it: when, and the codes it concerned. */
export interface RuleEdit {
  /** The rule, its name and the version the change made; null for a reorder or a pack switch. */
  ruleId: string | null;
  name: string | null;
  version: number | null;
  action: RuleEditAction;
  at: number;
  /**
   * For a rule: the code it set before the change (none for a creation) and after it (none for a
   * deletion). For a reorder or a pack switch: the codes of the stored calls the re-classification
   * moved (before and after), complete once `pending` is false.
   */
  codes: string[];
  /** A reorder or pack switch history is still being re-classified for: it may concern any code. */
  pending?: boolean;
}

/** Whether a change concerns a code: it set (or had set) the code, or it is a reorder or switch not yet worked out. */
export const editConcerns = (e: RuleEdit, code: string): boolean => e.pending === true || e.codes.includes(code);

/** What tells an absence finding (a code added, removed or renamed between releases) apart from a rule's doing. */
export interface RuleContext {
  /** Whether every span and final error of the code on the tool in the release was coded by a project's rule or the built-in pack. */
  whollyRuled: (code: string, tool: string, release: string) => boolean;
  /** When rules that set (or had set) the code were created, edited or deleted, and when reorders or pack switches that moved it happened. */
  editsOf: (code: string) => readonly number[];
}

/** The context of a project's accumulators and rule history. */
export function ruleContext(accumulators: readonly CodeAccumulator[], edits: readonly RuleEdit[]): RuleContext {
  const ruled = new Map<string, boolean>();
  for (const a of accumulators) ruled.set(`${a.code}\u0000${a.tool}\u0000${a.release}`, (a.ruled ?? 0) > 0 && (a.ruled ?? 0) >= a.spans + a.errors);
  const byCode = new Map<string, number[]>();
  const everyCode = edits.filter((e) => e.pending === true).map((e) => e.at);
  for (const e of edits) if (e.pending !== true) for (const c of e.codes) byCode.set(c, [...(byCode.get(c) ?? []), e.at]);
  return {
    whollyRuled: (code, tool, release) => ruled.get(`${code}\u0000${tool}\u0000${release}`) ?? false,
    editsOf: (code) => [...(byCode.get(code) ?? []), ...everyCode],
  };
}

/**
 * Whether a code's appearance, disappearance or renaming between two releases is a rule's doing: the
 * code on each side that has it was set by a project's rules or the built-in pack alone, and a rule
 * that set it (before or after the change) was created, edited or deleted, or a reorder or pack
 * switch moved it, after the earlier release was first seen. Stored calls are re-classified but
 * drift's accumulators keep what was folded, so the earlier release still shows the codes of the
 * rules as they were.
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

// While history is re-classified the codes a reorder or switch moves are not all known yet.
const PENDING = " (history is still being re-classified: it may concern any code)";

/**
 * A classification change as one line of a code's history: `rule “Name” edited to v2 at
 * 2027-03-01T10:00:00.000Z`, `rules reordered at …`, `built-in pack switched off at …`.
 */
export function ruleEditText(e: RuleEdit): string {
  const at = new Date(e.at).toISOString();
  const pending = e.pending === true ? PENDING : "";
  if (e.action === "reordered") return `rules reordered at ${at}${pending}`;
  if (e.action === "builtin_on" || e.action === "builtin_off") return `built-in pack switched ${e.action === "builtin_on" ? "on" : "off"} at ${at}${pending}`;
  if (e.action === "created") return `rule “${e.name}” created as v${e.version} at ${at}`;
  if (e.action === "deleted") return `rule “${e.name}” deleted at ${at}`;
  return `rule “${e.name}” edited to v${e.version} at ${at}`;
}
