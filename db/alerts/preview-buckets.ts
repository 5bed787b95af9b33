import type { Executor } from "../client";
import { PREVIEW_STEP_MS, type PreviewBucket } from "@/lib/alerts/preview";

/**
 * Per tool and 5-minute bucket of [from, to), the counts a per-tool rule reads: the same
 * predicates as the rule facts (facts.ts), grouped by bucket so a week is one scan of the
 * project-tool-time index, not one query per step.
 */
export async function listPreviewBuckets(db: Executor, project: string, q: { tool?: string; from: number; to: number }): Promise<PreviewBucket[]> {
  const rows = await db.all<{ tool: string; bucket: number | string; calls: number | string; failed_calls: number | string; retries: number | string | null; refusals: number | string | null; failed_closed: number | string | null }>(
    `SELECT tool, started_at / ${PREVIEW_STEP_MS} AS bucket,
       COUNT(DISTINCT call_id) AS calls,
       COUNT(DISTINCT CASE WHEN outcome IS NOT NULL AND outcome <> 'ok' AND (decision IS NULL OR decision <> 'retried') THEN call_id END) AS failed_calls,
       SUM(CASE WHEN decision = 'retried' THEN 1 ELSE 0 END) AS retries,
       SUM(CASE WHEN outcome IN ('refused', 'declined') THEN 1 ELSE 0 END) AS refusals,
       SUM(CASE WHEN decision = 'failed_closed' THEN 1 ELSE 0 END) AS failed_closed
     FROM tool_call_spans
     WHERE project_id = @project AND started_at >= @from AND started_at < @to${q.tool ? " AND tool = @tool" : ""}
     GROUP BY tool, started_at / ${PREVIEW_STEP_MS} ORDER BY tool, bucket`,
    { project, from: q.from, to: q.to, ...(q.tool ? { tool: q.tool } : {}) },
  );
  return rows.map((r) => ({
    tool: r.tool,
    at: Math.floor(Number(r.bucket)) * PREVIEW_STEP_MS,
    calls: Number(r.calls),
    failedCalls: Number(r.failed_calls),
    retries: Number(r.retries ?? 0),
    refusals: Number(r.refusals ?? 0),
    failedClosed: Number(r.failed_closed ?? 0),
  }));
}
