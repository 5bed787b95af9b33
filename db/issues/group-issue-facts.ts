import type { IssueGroup } from "@/lib/contracts/issues";
import { toldShape } from "@/lib/drift/told-shape";
import { groupIssueCode, groupKeyOfIssueCode } from "@/lib/triage/group-issue";
import type { Executor } from "../client";
import { jsonRows } from "../store/dialect-sql";

/**
 * What the issues of failure groups show of their group (docs/issues.md): its error type, HTTP status,
 * message shape and latest message, read from the calls still in the group (within raw retention and
 * not yet named by a rule), by issue code. A group with no such call left shows its key alone.
 */
export async function groupFactsByCode(db: Executor, projectId: string, codes: readonly string[]): Promise<Map<string, IssueGroup>> {
  const keys = [...new Set(codes.flatMap((c) => groupKeyOfIssueCode(c) ?? []))];
  const out = new Map<string, IssueGroup>(keys.map((key) => [groupIssueCode(key), { key, errorType: null, httpStatus: null, shape: null, sample: null }]));
  if (keys.length === 0) return out;
  const rows = await db.all<{ key: string; errorType: string | null; httpStatus: number | string | null; message: string | null }>(
    `SELECT "key", "errorType", "httpStatus", message FROM (
       SELECT f.group_key AS "key", f.error_type AS "errorType", f.http_status AS "httpStatus", s.message,
         row_number() OVER (PARTITION BY f.group_key ORDER BY f.started_at DESC, f.span_id) AS n
       FROM failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at
       WHERE f.project_id = @project AND f.group_key IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@keys")})
     ) AS latest WHERE n = 1 ORDER BY "key"`,
    { project: projectId, keys: JSON.stringify(keys.map((k) => [k])) },
  );
  for (const r of rows) {
    out.set(groupIssueCode(r.key), {
      key: r.key, errorType: r.errorType, httpStatus: r.httpStatus === null ? null : Number(r.httpStatus),
      shape: r.message === null ? "" : toldShape(r.message, null), sample: r.message,
    });
  }
  return out;
}
