import type { Conformance, Gap } from "@/lib/contracts/conformance";
import type { Store } from "../client";

const gap = (missing: number, of: number): Gap => ({ missing, of, share: of === 0 ? null : missing / of });

/**
 * Per input format, the share of a project's tool spans that lack an outcome, a code (among non-ok
 * spans), an attempt number or a release. Reads raw spans: the rollups have no source dimension, and
 * this is one grouped pass over the project's spans (via the project/run index), not a time series.
 */
export function getConformance(store: Store, params: { project: string }): Conformance {
  const rows = store.sqlite
    .prepare(
      `SELECT source,
        count(*) AS spans,
        sum(outcome IS NULL) AS no_outcome,
        sum(outcome IS NOT NULL AND outcome <> 'ok') AS non_ok,
        sum(outcome IS NOT NULL AND outcome <> 'ok' AND code IS NULL) AS no_code,
        sum(attempt IS NULL) AS no_attempt,
        sum(release IS NULL) AS no_release
      FROM tool_call_spans WHERE project_id = ? GROUP BY source ORDER BY source`,
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
