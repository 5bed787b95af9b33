import type { Conformance, Gap } from "@/lib/contracts/conformance";
import type { Store } from "../client";

const gap = (missing: number, of: number): Gap => ({ missing, of, share: of === 0 ? null : missing / of });

/**
 * Per input format, the share of a project's tool spans that lack an outcome, a code (among non-ok
 * spans), an attempt number or a release; from the counters kept at ingest.
 */
export function getConformance(store: Store, params: { project: string }): Conformance {
  const rows = store.sqlite
    .prepare(
      `SELECT source, spans, no_outcome, non_ok, no_code, no_attempt, no_release
       FROM conformance_counts WHERE project_id = ? ORDER BY source`,
    )
    .all(params.project) as { source: string; spans: number; no_outcome: number; non_ok: number; no_code: number; no_attempt: number; no_release: number }[];
  return {
    project: params.project,
    sources: rows.map((r) => ({
      source: r.source,
      spans: r.spans,
      outcome: gap(r.no_outcome, r.spans),
      code: gap(r.no_code, r.non_ok),
      attempt: gap(r.no_attempt, r.spans),
      release: gap(r.no_release, r.spans),
    })),
  };
}
