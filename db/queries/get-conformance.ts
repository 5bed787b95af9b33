import { asc, eq } from "drizzle-orm";
import type { Conformance, Gap } from "@/lib/contracts/conformance";
import type { Store } from "../client";
import { conformanceCounts } from "../schema/conformance-counts";

const gap = (missing: number, of: number): Gap => ({ missing, of, share: of === 0 ? null : missing / of });

/**
 * Per input format, the share of a project's tool spans that lack an outcome, a code (among non-ok
 * spans), an attempt number or a release; from the counters kept at ingest (a few rows per project).
 */
export function getConformance(store: Store, params: { project: string }): Conformance {
  const rows = store.db
    .select()
    .from(conformanceCounts)
    .where(eq(conformanceCounts.projectId, params.project))
    .orderBy(asc(conformanceCounts.source))
    .all();
  return {
    project: params.project,
    sources: rows.map((r) => ({
      source: r.source,
      spans: r.spans,
      outcome: gap(r.noOutcome, r.spans),
      code: gap(r.noCode, r.nonOk),
      attempt: gap(r.noAttempt, r.spans),
      release: gap(r.noRelease, r.spans),
    })),
  };
}
