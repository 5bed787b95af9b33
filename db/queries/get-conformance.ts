import type { Conformance, Gap } from "@/lib/contracts/conformance";
import type { Executor } from "../client";

const gap = (missing: number, of: number): Gap => ({ missing, of, share: of === 0 ? null : missing / of });

interface CountsRow {
  source: string;
  spans: number;
  noOutcome: number;
  nonOk: number;
  noCode: number;
  noAttempt: number;
  noRelease: number;
}

/**
 * Per input format, the share of a project's tool spans that lack an outcome, a code (among non-ok
 * spans), an attempt number or a release; from the counters kept at ingest (a few rows per project).
 */
export async function getConformance(db: Executor, params: { project: string }): Promise<Conformance> {
  // (project_id, source) is the key: ordering by source is total.
  const rows = await db.all<CountsRow>(
    `SELECT source, spans, no_outcome AS "noOutcome", non_ok AS "nonOk", no_code AS "noCode", no_attempt AS "noAttempt",
       no_release AS "noRelease"
     FROM conformance_counts WHERE project_id = ? ORDER BY source`,
    [params.project],
  );
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
