import { getClassificationRevision, getClassificationState, listClassificationRules } from "@/db/classify/rules";
import type { Store } from "@/db/client";
import { compileRuleset, type Ruleset } from "@/lib/classify/classify";

interface Cached {
  revision: number;
  ruleset: Ruleset;
}

// Per store, per project: the compiled rules and the revision they were compiled at. Every batch
// checks the revision (one indexed read), so an edit on any node applies to the next batch everywhere.
const caches = new WeakMap<Store, Map<string, Cached>>();

/** A project's compiled classification rules (its own, then the built-in pack when on), as of now. */
export async function rulesetFor(store: Store, projectId: string): Promise<Ruleset> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  const revision = await getClassificationRevision(store, projectId);
  const hit = cache.get(projectId);
  if (hit && hit.revision === revision) return hit.ruleset;
  const [state, rules] = await Promise.all([getClassificationState(store, projectId), listClassificationRules(store, projectId)]);
  const ruleset = compileRuleset(rules, state.builtinEnabled, state.revision);
  cache.set(projectId, { revision: state.revision, ruleset });
  return ruleset;
}
