import { classify, type Classified, type Ruleset, type Verdict } from "@/lib/classify/classify";
import type { FactValue, SpanFacts } from "@/lib/classify/facts";
import type { ClassifiedSpan } from "../ingest/aggregate";

/** A stored failure with its facts, as re-classification and the preview read it. */
export interface StoredFailure extends ClassifiedSpan {
  spanId: string;
  callId: string;
  message: string | null;
  source: string;
  errorType: string | null;
  httpStatus: number | null;
  attrs: string | null;
  prior: string | null;
  ruleId: string | null;
  ruleVersion: number | null;
  groupKey: string | null;
  /** The rules revision the failure was classified at. */
  revision: number;
}

/** Stored failures of a project with their facts; `where` narrows them further (on `f.`, the facts). */
export const selectStoredFailures = (where: string) => `SELECT s.span_id AS "spanId", s.run_id AS "runId", s.call_id AS "callId", s.tool, em.tool_version AS "toolVersion", s.code,
    s.outcome, s.error_class AS "errorClass", s.retryable, s.retry_after_ms AS "retryAfterMs", s.backoff_ms AS "backoffMs", s.decision, s.attempt, em.release,
    em.service, em.environment, s.started_at AS "startedAt", s.ended_at AS "endedAt", s.message, em.source, f.error_type AS "errorType",
    f.http_status AS "httpStatus", f.attrs, f.prior, f.rule_id AS "ruleId", f.rule_version AS "ruleVersion", f.group_key AS "groupKey", f.revision
  FROM failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at
  CROSS JOIN span_emitters em
  WHERE f.project_id = @project AND em.id = s.emitter_id AND ${where}`;

const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Number(v) === 1);

/** The stored span's classified fields as they are now. */
export function currentFields(r: StoredFailure): Classified {
  return { code: r.code, errorClass: r.errorClass, retryable: bool(r.retryable), outcome: r.outcome, retryAfterMs: r.retryAfterMs === null ? null : Number(r.retryAfterMs) };
}

/** The emitter's own fields: what a rule set replaced them with is never the base of a new verdict. */
export const emitterOwn = (r: StoredFailure): Classified => (r.prior === null ? currentFields(r) : (JSON.parse(r.prior) as Classified));

/** The facts classification reads, from their stored form. */
export function failureFactsOf(r: StoredFailure): SpanFacts {
  const attributes = r.attrs === null ? {} : (JSON.parse(r.attrs) as Record<string, FactValue>);
  return { errorType: r.errorType, httpStatus: r.httpStatus === null ? null : Number(r.httpStatus), attributes };
}

/** A stored failure classified again by a ruleset; a native record's code stays (as at ingest). */
export function reclassified(r: StoredFailure, ruleset: Ruleset): { own: Classified; verdict: Verdict } {
  const own = emitterOwn(r);
  const verdict: Verdict =
    r.source === "native" && own.code !== null
      ? { ...own, ruleId: null, ruleVersion: null, groupKey: null }
      : classify({ ...own, tool: r.tool, message: r.message, endedAt: Number(r.endedAt) }, failureFactsOf(r), ruleset);
  return { own, verdict };
}

/** Whether two sets of classified fields differ. */
export const fieldsDiffer = (a: Classified, b: Classified): boolean =>
  a.code !== b.code || a.errorClass !== b.errorClass || a.retryable !== b.retryable || a.outcome !== b.outcome || a.retryAfterMs !== b.retryAfterMs;
