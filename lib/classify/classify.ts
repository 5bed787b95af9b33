import { CLASS_OUTCOMES, type ClassificationRule, type RuleSet } from "@/lib/contracts/classification";
import { BUILTIN_PACK_VERSION, BUILTIN_RULES } from "./builtin-pack";
import { retryAfterFromHeaders, type SpanFacts } from "./facts";
import { groupKeyOf, groupParts } from "./group-key";
import { compileMatch, type CompiledMatch, type MatchSubject } from "./match";

/** The fields of a stored call that classification reads and may set. */
export interface Classifiable {
  tool: string;
  outcome: string | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
  retryAfterMs: number | null;
  message: string | null;
  endedAt: number;
}

/** The fields classification sets. */
export type Classified = Pick<Classifiable, "code" | "errorClass" | "retryable" | "outcome" | "retryAfterMs">;

/** What classification made of a call: its fields, which rule set them, and its group when still uncoded. */
export interface Verdict extends Classified {
  /** The rule that set the code (a project rule's id or a `builtin.*` id) and its version; null = none. */
  ruleId: string | null;
  ruleVersion: number | null;
  /** The failure group of a failure left without a code; null otherwise. */
  groupKey: string | null;
}

interface CompiledRule {
  id: string;
  version: number;
  match: CompiledMatch;
  set: RuleSet;
  overrideEmitter: boolean;
  retryAfterFromHeaders: boolean;
}

/** A project's rules and the pack, compiled once and applied to many calls. */
export interface Ruleset {
  rules: readonly CompiledRule[];
  /** The project's rules revision this was compiled from (stored with every classified call). */
  revision: number;
}

/** Outcomes classification applies to: a call that failed or was refused, not one that was cancelled. */
export const CLASSIFIED_OUTCOMES: ReadonlySet<string> = new Set(["failed", "declined", "refused", "not_found", "timed_out", "invalid_arguments", "result_rejected"]);

/** Compiles a project's enabled rules (in their order) followed, when on, by the built-in pack. */
export function compileRuleset(rules: readonly ClassificationRule[], builtin: boolean, revision = 0): Ruleset {
  const compiled: CompiledRule[] = [...rules]
    .filter((r) => r.enabled)
    .sort((a, b) => a.position - b.position)
    .map((r) => ({ id: r.id, version: r.version, match: compileMatch(r.match), set: r.set, overrideEmitter: r.overrideEmitter, retryAfterFromHeaders: false }));
  if (builtin) {
    for (const b of BUILTIN_RULES) {
      const alternatives = b.anyOf.map(compileMatch);
      compiled.push({
        id: b.id, version: BUILTIN_PACK_VERSION, set: b.set, overrideEmitter: false, retryAfterFromHeaders: b.retryAfterFromHeaders ?? false,
        match: (s) => {
          for (const m of alternatives) if (m(s)) return true;
          return false;
        },
      });
    }
  }
  return { rules: compiled, revision };
}

const NO_FACTS: SpanFacts = { errorType: null, httpStatus: null, attributes: {} };

/**
 * Classifies one call from its emitter's fields (never from an earlier rule's): the first rule that
 * matches sets the code, the class (and with it the outcome: declined and refused stay apart),
 * retryable and, for the pack's rate limits, retry_after from the response headers. A rule skips a
 * call whose emitter sent a code unless it says `overrideEmitter`; the pack never overrides. A failure
 * still without a code gets its group key.
 */
export function classify(call: Classifiable, facts: SpanFacts | null, ruleset: Ruleset): Verdict {
  const own: Verdict = {
    code: call.code, errorClass: call.errorClass, retryable: call.retryable, outcome: call.outcome, retryAfterMs: call.retryAfterMs,
    ruleId: null, ruleVersion: null, groupKey: null,
  };
  if (call.outcome === null || !CLASSIFIED_OUTCOMES.has(call.outcome)) return own;
  const f = facts ?? NO_FACTS;
  const subject: MatchSubject = { tool: call.tool, message: call.message, facts: f };
  for (const rule of ruleset.rules) {
    if (call.code !== null && !rule.overrideEmitter) continue;
    if (!rule.match(subject)) continue;
    const errorClass = rule.set.errorClass ?? call.errorClass;
    return {
      code: rule.set.code,
      errorClass,
      retryable: rule.set.retryable ?? call.retryable,
      outcome: rule.set.errorClass ? CLASS_OUTCOMES[rule.set.errorClass] : call.outcome,
      retryAfterMs: call.retryAfterMs ?? (rule.retryAfterFromHeaders ? retryAfterFromHeaders(f.attributes, call.endedAt) : null),
      ruleId: rule.id,
      ruleVersion: rule.version,
      groupKey: null,
    };
  }
  if (call.code === null) own.groupKey = groupKeyOf(groupParts({ tool: call.tool, errorType: f.errorType, message: call.message, httpStatus: f.httpStatus }));
  return own;
}
