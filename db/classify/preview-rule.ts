import { compileRuleset } from "@/lib/classify/classify";
import type { ClassificationPreview, ClassificationRule, RuleInput } from "@/lib/contracts/classification";
import type { Executor } from "../client";
import { getClassificationState, listClassificationRules } from "./rules";
import { currentFields, fieldsDiffer, reclassified, selectStoredFailures, type StoredFailure } from "./stored-failures";

const PAGE = 5000;
const CANDIDATE = "\u0000candidate";

/**
 * What saving a rule would do to a project's stored failures started in [from, to): how many it would
 * classify (it would be the first rule to match, with the project's other rules and the pack as they
 * are), how many of those have no code now, and how many have a code now that it would change. An
 * edit (`ruleId`) is previewed in the rule's place, a new rule after the others. Exact: every stored
 * failure of the window is classified, page by page.
 */
export async function previewRule(db: Executor, projectId: string, input: RuleInput, ruleId: string | null, from: number, to: number): Promise<ClassificationPreview> {
  const [state, rules] = await Promise.all([getClassificationState(db, projectId), listClassificationRules(db, projectId)]);
  const candidate = (position: number): ClassificationRule => ({ ...input, enabled: true, id: CANDIDATE, version: 1, position, updatedAt: 0 });
  const existing = ruleId === null ? null : rules.find((r) => r.id === ruleId);
  const withCandidate = existing ? rules.map((r) => (r.id === ruleId ? candidate(r.position) : r)) : [...rules, candidate(rules.reduce((m, r) => Math.max(m, r.position + 1), 0))];
  const ruleset = compileRuleset(withCandidate, state.builtinEnabled, state.revision);
  const out: ClassificationPreview = { project: projectId, from, to, matched: 0, unclassifiedNow: 0, changesCoded: 0, examined: 0 };
  let after = "";
  for (;;) {
    const page = await db.all<StoredFailure>(`${selectStoredFailures("f.started_at >= @from AND f.started_at < @to AND f.span_id > @after")} ORDER BY f.span_id LIMIT ${PAGE}`, {
      project: projectId, from, to, after,
    });
    for (const r of page) {
      out.examined++;
      const { verdict } = reclassified(r, ruleset);
      if (verdict.ruleId !== CANDIDATE) continue;
      out.matched++;
      const now = currentFields(r);
      if (now.code === null) out.unclassifiedNow++;
      else if (fieldsDiffer(now, verdict)) out.changesCoded++;
    }
    if (page.length < PAGE) return out;
    after = page[page.length - 1]!.spanId;
  }
}
