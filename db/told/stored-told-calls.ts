import type { StoredAttemptVerdict } from "@/lib/classify/classify-errors";
import type { ErrorClassified } from "@/lib/ingest/rows";
import type { ToldCallSpan } from "@/lib/ingest/otlp/told-errors";
import { jsonRows } from "../store/dialect-sql";
import type { Executor } from "../store/types";

/** What is stored of the calls a batch's tool results answer: their attempts, and which already have a final error. */
export interface StoredToldCalls {
  attempts: ToldCallSpan[];
  /** (run, call) of the calls among them that already have a final error. */
  reported: { runId: string; callId: string }[];
  /** By span id: how classification left each failed attempt, which a told error answering it follows. */
  verdicts: Map<string, StoredAttemptVerdict>;
}

interface AttemptRow extends Omit<ToldCallSpan, "retryable" | "startedAt" | "endedAt" | "attempt" | "traceId"> {
  traceId: string | null;
  retryable: number | null;
  startedAt: number | string;
  endedAt: number | string;
  attempt: number | string | null;
  ruleId: string | null;
  ruleVersion: number | string | null;
  prior: string | null;
  revision: number | string | null;
}

/**
 * Every stored attempt of the calls named by `callIds` in a project (by the (project, call) index),
 * and the (run, call) pairs among them that already have a final error (by the (project, run) index):
 * a tool result that reaches Faultline after the failed call it answers is matched against these.
 */
export async function storedToldCalls(db: Executor, projectId: string, callIds: readonly string[]): Promise<StoredToldCalls> {
  if (callIds.length === 0) return { attempts: [], reported: [], verdicts: new Map() };
  const rows = await db.all<AttemptRow>(
    `SELECT s.span_id AS "spanId", s.trace_id AS "traceId", s.run_id AS "runId", s.call_id AS "callId", s.tool, em.tool_version AS "toolVersion",
       em.release, em.service, em.environment, s.code, s.error_class AS "errorClass", s.retryable, s.attempt, s.started_at AS "startedAt",
       s.ended_at AS "endedAt", s.outcome, s.decision, s.derived, f.rule_id AS "ruleId", f.rule_version AS "ruleVersion", f.prior, f.revision
     FROM tool_call_spans s CROSS JOIN span_emitters em
     LEFT JOIN failure_facts f ON f.project_id = s.project_id AND f.span_id = s.span_id AND f.started_at = s.started_at
     WHERE s.project_id = @project AND em.id = s.emitter_id AND s.call_id IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@calls")})
     ORDER BY s.span_id`,
    { project: projectId, calls: JSON.stringify([...new Set(callIds)].map((c) => [c])) },
  );
  const verdicts = new Map<string, StoredAttemptVerdict>();
  const attempts: ToldCallSpan[] = rows
    .filter((r) => r.traceId !== null)
    .map(({ ruleId, ruleVersion, prior, revision, ...r }) => {
      const retryable = r.retryable === null ? null : Number(r.retryable) === 1;
      // The told error's own fields are the emitter's: what a rule set is followed, never taken as its own.
      const p = prior === null ? null : (JSON.parse(prior) as ErrorClassified);
      const own: ErrorClassified = p === null ? { code: r.code, errorClass: r.errorClass, retryable } : { code: p.code, errorClass: p.errorClass, retryable: p.retryable };
      if (revision !== null) {
        verdicts.set(r.spanId, {
          ownCode: own.code, ruleId, ruleVersion: ruleVersion === null ? null : Number(ruleVersion), code: r.code, errorClass: r.errorClass, retryable, revision: Number(revision),
        });
      }
      return {
        ...r, ...own, traceId: r.traceId!, startedAt: Number(r.startedAt), endedAt: Number(r.endedAt), attempt: r.attempt === null ? null : Number(r.attempt),
      };
    });
  if (attempts.length === 0) return { attempts, reported: [], verdicts };
  const pairs = [...new Set(attempts.map((a) => JSON.stringify([a.runId, a.callId])))].map((p) => JSON.parse(p) as [string, string]);
  const reported = await db.all<{ runId: string; callId: string }>(
    `SELECT DISTINCT e.run_id AS "runId", e.call_id AS "callId"
     FROM (SELECT value ->> 0 AS run_id, value ->> 1 AS call_id FROM ${jsonRows(db.dialect, "@pairs")}) AS k
     JOIN tool_errors e ON e.project_id = @project AND e.run_id = k.run_id AND e.call_id = k.call_id
     ORDER BY "runId", "callId"`,
    { project: projectId, pairs: JSON.stringify(pairs) },
  );
  return { attempts, reported, verdicts };
}
