import type { CodeReleasePoint, CodeReleaseHistory } from "@/lib/contracts/drift";
import { histogramQuantile } from "@/lib/drift/delays";
import { orderReleases } from "@/lib/drift/semver";
import { ruleEditText } from "@/lib/drift/rule-caused";
import { dimMix, withRuleSet } from "@/lib/drift/signature";
import { listRuleEdits } from "../classify/rule-edits";
import type { Executor } from "../store/types";
import { loadAccumulators } from "./load-accumulators";

const addMix = (target: Record<string, number>, entries: { value: string; count: number }[]) => {
  for (const e of entries) target[e.value] = (target[e.value] ?? 0) + e.count;
};

/** One code's signature per release (all tools, or one), oldest first, for a change-point chart; and the rule changes that concern it. */
export async function getCodeReleaseHistory(db: Executor, params: { project: string; code: string; tool?: string }): Promise<CodeReleaseHistory> {
  const [accs, edits] = [await loadAccumulators(db, params.project, { code: params.code, tool: params.tool }), await listRuleEdits(db, params.project, params.code)];
  const byRelease = new Map<string, CodeReleasePoint & { recovered: number; delays: Map<number, number> }>();
  // The page shows what rules set too (drift judges only what the emitter said).
  for (const acc of accs.map(withRuleSet)) {
    let p = byRelease.get(acc.release);
    if (!p) {
      p = {
        release: acc.release, releaseKind: acc.releaseKind, firstSeen: acc.firstSeen, tools: [], calls: 0, spans: 0, errors: 0,
        byClass: {}, byOutcome: {}, retryable: { retryable: 0, permanent: 0 }, recoveryRate: null, retryAfterMedianMs: null,
        recovered: 0, delays: new Map(),
      };
      byRelease.set(acc.release, p);
    }
    p.firstSeen = Math.min(p.firstSeen, acc.firstSeen);
    p.tools.push(acc.tool);
    p.calls += acc.calls;
    p.spans += acc.spans;
    p.errors += acc.errors;
    p.recovered += acc.recovered;
    // Per tool the same basis rule as the signatures: attempts where spans carried it, else final errors.
    addMix(p.byClass, dimMix(acc, "error_class").entries);
    addMix(p.byOutcome, dimMix(acc, "outcome").entries);
    for (const e of dimMix(acc, "retryable").entries) if (e.value === "retryable" || e.value === "permanent") p.retryable[e.value] += e.count;
    for (const [ms, n] of acc.retryAfter) p.delays.set(ms, (p.delays.get(ms) ?? 0) + n);
  }
  const ordered = orderReleases([...byRelease.values()]);
  return {
    code: params.code,
    tool: params.tool ?? null,
    order: ordered.order,
    points: ordered.items.map(({ recovered, delays, ...p }) => ({
      ...p,
      tools: p.tools.sort(),
      recoveryRate: p.calls > 0 ? recovered / p.calls : null,
      retryAfterMedianMs: histogramQuantile(delays, 0.5),
    })),
    ruleEdits: edits.map((e) => ({ ruleId: e.ruleId, name: e.name, version: e.version, action: e.action, at: e.at, pending: e.pending === true, text: ruleEditText(e) })),
  };
}
