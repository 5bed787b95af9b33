import type { FailureGroup } from "@/lib/contracts/classification";
import { toldShape } from "@/lib/drift/told-shape";
import type { Executor } from "../client";
import { jsonRows } from "../store/dialect-sql";

const JOIN = "failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at";

/**
 * The failure groups of a project's failures left without a code in a window, heaviest first: calls,
 * runs, first and last seen, and the three latest messages with their runs. The shape is read from
 * the latest message (every message of a group has it).
 */
export async function listFailureGroups(db: Executor, projectId: string, from: number, to: number, limit: number): Promise<FailureGroup[]> {
  const groups = await db.all<{ key: string; tool: string; errorType: string | null; httpStatus: number | null; calls: number; runs: number; firstSeen: number; lastSeen: number }>(
    `SELECT f.group_key AS "key", min(s.tool) AS tool, min(f.error_type) AS "errorType", min(f.http_status) AS "httpStatus", count(*) AS calls,
       count(DISTINCT f.run_id) AS runs, min(f.started_at) AS "firstSeen", max(f.started_at) AS "lastSeen"
     FROM ${JOIN}
     WHERE f.project_id = @project AND f.group_key IS NOT NULL AND f.started_at >= @from AND f.started_at < @to
     GROUP BY f.group_key ORDER BY calls DESC, "lastSeen" DESC, f.group_key LIMIT @limit`,
    { project: projectId, from, to, limit },
  );
  if (groups.length === 0) return [];
  const samples = await db.all<{ key: string; message: string | null; runId: string; spanId: string; at: number }>(
    `SELECT "key", message, "runId", "spanId", at FROM (
       SELECT f.group_key AS "key", s.message, s.run_id AS "runId", s.span_id AS "spanId", s.started_at AS at,
         row_number() OVER (PARTITION BY f.group_key ORDER BY s.started_at DESC, s.span_id) AS n
       FROM ${JOIN}
       WHERE f.project_id = @project AND f.group_key IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@keys")}) AND f.started_at >= @from AND f.started_at < @to
     ) AS ranked WHERE n <= 3 ORDER BY "key", at DESC, "spanId"`,
    { project: projectId, from, to, keys: JSON.stringify(groups.map((g) => [g.key])) },
  );
  const byKey = new Map<string, FailureGroup["samples"]>();
  for (const s of samples) {
    const list = byKey.get(s.key) ?? [];
    list.push({ message: s.message, runId: s.runId, spanId: s.spanId, at: Number(s.at) });
    byKey.set(s.key, list);
  }
  return groups.map((g) => {
    const list = byKey.get(g.key) ?? [];
    return {
      key: g.key, tool: g.tool, errorType: g.errorType, httpStatus: g.httpStatus === null ? null : Number(g.httpStatus),
      shape: list[0]?.message ? toldShape(list[0].message, null) : "", calls: Number(g.calls), runs: Number(g.runs),
      firstSeen: Number(g.firstSeen), lastSeen: Number(g.lastSeen), samples: list,
    };
  });
}
