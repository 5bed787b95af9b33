import { emptyDimCounts, SIGNATURE_DIMS, type CodeAccumulator, type SignatureDim } from "@/lib/drift/signature";
import type { ToolRelease } from "@/lib/drift/compare";
import type { ReleaseKind } from "@/lib/contracts/drift";
import type { Executor } from "../store/types";
import { parseRunIds } from "./deltas";
import type { SignatureRow, ToolReleaseRow } from "./statements";

const SEP = "\u0000";
const isDim = (d: string): d is SignatureDim => (SIGNATURE_DIMS as readonly string[]).includes(d);

/** Code-unit order, the same on both engines whatever the database's collation. */
const byParts = <T>(parts: (x: T) => string[]) => (a: T, b: T) => {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  return 0;
};

interface CountRow {
  code: string;
  tool: string;
  release: string;
  basis: string;
  dim: string;
  value: string;
  count: number;
}

function filterSql(filter: { code?: string; tool?: string }): string {
  return (filter.code !== undefined ? " AND code = @code" : "") + (filter.tool !== undefined ? " AND tool = @tool" : "");
}

/** The accumulators of a project (optionally one code and/or tool), ready for the pure drift rules. */
export async function loadAccumulators(db: Executor, projectId: string, filter: { code?: string; tool?: string } = {}): Promise<CodeAccumulator[]> {
  const params = { project: projectId, ...(filter.code !== undefined && { code: filter.code }), ...(filter.tool !== undefined && { tool: filter.tool }) };
  const where = `project_id = @project${filterSql(filter)}`;
  const signatures = await db.all<SignatureRow>(
    `SELECT code, tool, release, release_kind, spans, errors, calls, recovered, ruled, first_seen, last_seen, example_run_ids FROM drift_signatures WHERE ${where}`,
    params,
  );
  const counts = await db.all<CountRow>(`SELECT code, tool, release, basis, dim, value, count FROM drift_counts WHERE ${where}`, params);
  // Sorted here rather than by ORDER BY: the rules see the same order on either engine and collation.
  signatures.sort(byParts((s) => [s.code, s.tool, s.release]));
  counts.sort(byParts((c) => [c.code, c.tool, c.release, c.basis, c.dim, c.value]));
  const byKey = new Map<string, CodeAccumulator>();
  for (const s of signatures) {
    // A signature whose only rows moved to another release (error-attribution.ts) is empty: no sighting.
    if (s.spans === 0 && s.errors === 0) continue;
    byKey.set([s.code, s.tool, s.release].join(SEP), {
      code: s.code,
      tool: s.tool,
      release: s.release,
      releaseKind: s.release_kind as ReleaseKind,
      spans: s.spans,
      errors: s.errors,
      calls: s.calls,
      recovered: s.recovered,
      ruled: Number(s.ruled),
      firstSeen: s.first_seen,
      lastSeen: s.last_seen,
      attempts: emptyDimCounts(),
      finalErrors: emptyDimCounts(),
      retryAfter: new Map(),
      told: {},
      exampleRunIds: parseRunIds(s.example_run_ids),
    });
  }
  for (const c of counts) {
    const acc = byKey.get([c.code, c.tool, c.release].join(SEP));
    if (!acc) continue;
    if (c.dim === "retry_after") acc.retryAfter.set(Number(c.value), (acc.retryAfter.get(Number(c.value)) ?? 0) + c.count);
    else if (c.dim === "told") acc.told[c.value] = (acc.told[c.value] ?? 0) + c.count;
    else if (isDim(c.dim)) {
      const target = c.basis === "attempts" ? acc.attempts : c.basis === "rules" ? (acc.ruleSet ??= emptyDimCounts()) : acc.finalErrors;
      target[c.dim][c.value] = (target[c.dim][c.value] ?? 0) + c.count;
    }
  }
  return [...byKey.values()];
}

/** Every (tool, release) of a project with its call count (first attempts, or final errors when larger). */
export async function loadToolReleases(db: Executor, projectId: string): Promise<ToolRelease[]> {
  const rows = await db.all<ToolReleaseRow & { release_kind: string }>(
    "SELECT tool, release, release_kind, first_attempts, spans, errors, first_seen, last_seen, example_run_ids FROM drift_tool_releases WHERE project_id = @project",
    { project: projectId },
  );
  // A release whose only rows moved to a tool version holds nothing: it is not a release of the tool.
  const held = rows.filter((r) => r.spans > 0 || r.errors > 0);
  return held.sort(byParts((r) => [r.tool, r.release])).map((r) => ({
    tool: r.tool,
    release: r.release,
    releaseKind: r.release_kind as ReleaseKind,
    // Sources that send only final errors (no attempts) still give the tool a call count.
    calls: Math.max(r.first_attempts, r.errors),
    finalErrorsOnly: r.errors > r.first_attempts,
    firstSeen: r.first_seen,
    exampleRunIds: parseRunIds(r.example_run_ids),
  }));
}
