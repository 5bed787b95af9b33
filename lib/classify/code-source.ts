import type { CodeSource } from "@/lib/contracts/classification";

/** What a stored call's facts say about its code: the rule that set it, if any. */
export interface CodeSourceFacts {
  code: string | null;
  ruleId: string | null;
  ruleVersion: number | null;
  /** The project rule's name (deleted rules keep theirs); null for the pack or an unknown rule. */
  ruleName: string | null;
}

/** Where a call's code came from: the emitter, a project rule at a version, a rule of the built-in pack, or nowhere. */
export function codeSourceOf(f: CodeSourceFacts): CodeSource {
  if (f.ruleId !== null) {
    const version = f.ruleVersion ?? 0;
    return f.ruleId.startsWith("builtin.") ? { kind: "builtin", ruleId: f.ruleId, version } : { kind: "rule", ruleId: f.ruleId, version, name: f.ruleName };
  }
  return f.code === null ? { kind: "none" } : { kind: "emitter" };
}

/** The words shown beside a code on the timeline, the attempt panel and the Conformance page. */
export function codeSourceLabel(s: CodeSource): string {
  switch (s.kind) {
    case "emitter":
      return "sent by the emitter";
    case "rule":
      return `set by rule ${s.name === null ? s.ruleId : `“${s.name}”`} version ${s.version}`;
    case "builtin":
      return `set by built-in rule ${s.ruleId} (pack version ${s.version})`;
    case "none":
      return "no code: unclassified";
  }
}
