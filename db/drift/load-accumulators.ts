import { and, eq, type SQL } from "drizzle-orm";
import { emptyDimCounts, SIGNATURE_DIMS, type CodeAccumulator, type SignatureDim } from "@/lib/drift/signature";
import type { ToolRelease } from "@/lib/drift/compare";
import type { Store } from "../client";
import { driftCounts, driftSignatures, driftToolReleases } from "../schema";
import { parseRunIds } from "./deltas";

const SEP = "\u0000";
const isDim = (d: string): d is SignatureDim => (SIGNATURE_DIMS as readonly string[]).includes(d);

/** The accumulators of a project (optionally one code and/or tool), ready for the pure drift rules. */
export function loadAccumulators(store: Store, projectId: string, filter: { code?: string; tool?: string } = {}): CodeAccumulator[] {
  const sigWhere: SQL[] = [eq(driftSignatures.projectId, projectId)];
  const countWhere: SQL[] = [eq(driftCounts.projectId, projectId)];
  if (filter.code !== undefined) {
    sigWhere.push(eq(driftSignatures.code, filter.code));
    countWhere.push(eq(driftCounts.code, filter.code));
  }
  if (filter.tool !== undefined) {
    sigWhere.push(eq(driftSignatures.tool, filter.tool));
    countWhere.push(eq(driftCounts.tool, filter.tool));
  }
  const byKey = new Map<string, CodeAccumulator>();
  for (const s of store.db.select().from(driftSignatures).where(and(...sigWhere)).all()) {
    byKey.set([s.code, s.tool, s.release].join(SEP), {
      code: s.code,
      tool: s.tool,
      release: s.release,
      releaseKind: s.releaseKind,
      spans: s.spans,
      errors: s.errors,
      calls: s.calls,
      recovered: s.recovered,
      firstSeen: s.firstSeen,
      lastSeen: s.lastSeen,
      attempts: emptyDimCounts(),
      finalErrors: emptyDimCounts(),
      retryAfter: new Map(),
      told: {},
      exampleRunIds: parseRunIds(s.exampleRunIds),
    });
  }
  for (const c of store.db.select().from(driftCounts).where(and(...countWhere)).all()) {
    const acc = byKey.get([c.code, c.tool, c.release].join(SEP));
    if (!acc) continue;
    if (c.dim === "retry_after") acc.retryAfter.set(Number(c.value), (acc.retryAfter.get(Number(c.value)) ?? 0) + c.count);
    else if (c.dim === "told") acc.told[c.value] = (acc.told[c.value] ?? 0) + c.count;
    else if (isDim(c.dim)) {
      const target = c.basis === "attempts" ? acc.attempts : acc.finalErrors;
      target[c.dim][c.value] = (target[c.dim][c.value] ?? 0) + c.count;
    }
  }
  return [...byKey.values()];
}

/** Every (tool, release) of a project with its call count (first attempts, or final errors when larger). */
export function loadToolReleases(store: Store, projectId: string): ToolRelease[] {
  return store.db
    .select()
    .from(driftToolReleases)
    .where(eq(driftToolReleases.projectId, projectId))
    .all()
    .map((r) => ({
      tool: r.tool,
      release: r.release,
      releaseKind: r.releaseKind,
      // Sources that send only final errors (no attempts) still give the tool a call count.
      calls: Math.max(r.firstAttempts, r.errors),
      firstSeen: r.firstSeen,
      exampleRunIds: parseRunIds(r.exampleRunIds),
    }));
}
