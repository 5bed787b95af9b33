import type { RuleMatch } from "@/lib/contracts/classification";
import { toldShape } from "@/lib/drift/told-shape";
import type { SpanFacts } from "./facts";
import { compileGlob, type GlobTest } from "./glob";

/** A failure as rules see it. Derived texts are computed once, on first need, whatever the number of rules. */
export interface MatchSubject {
  tool: string;
  message: string | null;
  facts: SpanFacts;
  lower?: { message: string | null; shape?: string; type: string | null; typeLast: string | null };
}

/** A rule's conditions, compiled once per ruleset. */
export type CompiledMatch = (s: MatchSubject) => boolean;

const lastSegment = (type: string): string => type.slice(Math.max(type.lastIndexOf(".") + 1, type.lastIndexOf(":") + 1));

function lowered(s: MatchSubject): NonNullable<MatchSubject["lower"]> {
  if (!s.lower) {
    const type = s.facts.errorType?.toLowerCase() ?? null;
    s.lower = { message: s.message?.toLowerCase() ?? null, type, typeLast: type === null ? null : lastSegment(type) };
  }
  return s.lower;
}

/** The lower-cased shape of the message (the told-text shaping), computed once per failure. */
function shapeOf(s: MatchSubject): string {
  const l = lowered(s);
  l.shape ??= toldShape(s.message ?? "", null).toLowerCase();
  return l.shape;
}

const messageTest = (glob: GlobTest): CompiledMatch => (s) => {
  const l = lowered(s);
  return l.message !== null && (glob(l.message) || glob(shapeOf(s)));
};

/** Compiles a rule's conditions into one predicate (all given conditions must hold, cheapest first). */
export function compileMatch(m: Partial<RuleMatch> & { noHttpStatus?: boolean }): CompiledMatch {
  const tests: CompiledMatch[] = [];
  if (m.httpStatus && m.httpStatus.length > 0) {
    const statuses = new Set(m.httpStatus);
    tests.push((s) => s.facts.httpStatus !== null && statuses.has(s.facts.httpStatus));
  }
  if (m.noHttpStatus) tests.push((s) => s.facts.httpStatus === null);
  if (m.tool) {
    const glob = compileGlob(m.tool, false);
    tests.push((s) => glob(s.tool));
  }
  if (m.errorType) {
    const glob = compileGlob(m.errorType, true);
    tests.push((s) => {
      const l = lowered(s);
      return l.type !== null && (glob(l.type) || glob(l.typeLast!));
    });
  }
  for (const a of m.attributes ?? []) {
    const glob = compileGlob(a.value, true);
    tests.push((s) => {
      const v = s.facts.attributes[a.key];
      return v !== undefined && glob(String(v).toLowerCase());
    });
  }
  if (m.message) tests.push(messageTest(compileGlob(m.message, true)));
  if (tests.length === 1) return tests[0]!;
  return (s) => {
    for (const t of tests) if (!t(s)) return false;
    return true;
  };
}
