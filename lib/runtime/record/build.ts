import { LIMITS, type Decision, type Outcome, type RunRecord, type ToolCallSpanRecord, type ToolErrorRecord } from "../../contracts";
import { scrubText } from "../../contracts/scrub";
import type { ToolError } from "../errors/tool-error";

/** Fields a run's records share. */
export interface RecordScope {
  readonly runId: string;
  readonly traceId: string;
  readonly release?: string | undefined;
  readonly environment?: string | undefined;
}

/** One attempt, as the loop saw it. */
export interface AttemptFacts {
  id: string;
  callId: string;
  tool: string;
  toolVersion?: string | undefined;
  attempt: number;
  startedAt: number;
  endedAt: number;
  outcome: Outcome;
  error?: ToolError | undefined;
  decision?: Decision | undefined;
  retryAfterMs?: number | undefined;
  backoffMs?: number | undefined;
  permitted?: boolean | undefined;
  message?: string | undefined;
  /** The call's arguments hash (lib/contracts/args-hash.ts), the same on every attempt. */
  argsHash?: string | undefined;
  /** The call id of the surfaced error this call answers; null when it answers none. */
  afterError?: string | null | undefined;
}

const delay = (ms: number | undefined) => (ms === undefined ? undefined : Math.min(Math.max(0, Math.round(ms)), LIMITS.maxDelayMs));

/** Removes `undefined` fields so the JSON stays small and optional fields stay absent. */
export function compact<T extends object>(record: T): T {
  for (const key of Object.keys(record) as (keyof T)[]) if (record[key] === undefined) delete record[key];
  return record;
}

/** Scrubs and bounds free text for the wire. */
export function wireText(text: string): string {
  const scrubbed = scrubText(text);
  return scrubbed.length > LIMITS.maxTextLength ? `${scrubbed.slice(0, LIMITS.maxTextLength - 1)}…` : scrubbed;
}

/**
 * Builds a `tool_call_span` record. Optional fields are assigned only when present (rather than
 * deleted afterwards) so the object keeps one shape: this runs once per attempt.
 */
export function spanRecord(scope: RecordScope, f: AttemptFacts): ToolCallSpanRecord {
  const r: ToolCallSpanRecord = {
    type: "tool_call_span",
    id: f.id,
    trace_id: scope.traceId,
    run_id: scope.runId,
    call_id: f.callId,
    tool: f.tool,
    attempt: f.attempt,
    started_at: Math.round(f.startedAt),
    ended_at: Math.round(Math.max(f.endedAt, f.startedAt)),
    outcome: f.outcome,
  };
  if (f.toolVersion !== undefined) r.tool_version = f.toolVersion;
  const e = f.error;
  if (e) {
    r.code = e.code;
    r.error_class = e.errorClass;
    r.retryable = e.retryable;
  }
  if (f.retryAfterMs !== undefined) r.retry_after_ms = delay(f.retryAfterMs);
  if (f.backoffMs !== undefined) r.backoff_ms = delay(f.backoffMs);
  if (f.decision !== undefined) r.decision = f.decision;
  if (f.permitted !== undefined) r.permitted = f.permitted;
  const message = f.message ?? (e?.detail || undefined);
  if (message !== undefined) r.message = wireText(message);
  if (f.argsHash !== undefined) r.args_hash = f.argsHash;
  if (f.afterError !== undefined) r.after_error = f.afterError;
  if (scope.release !== undefined) r.release = scope.release;
  if (scope.environment !== undefined) r.environment = scope.environment;
  return r;
}

/** Builds the `run` record. */
export function runRecord(
  scope: RecordScope,
  f: Omit<RunRecord, "type" | "id" | "run_id" | "release" | "environment">,
): RunRecord {
  return compact<RunRecord>({
    type: "run",
    id: scope.runId,
    run_id: scope.runId,
    ...f,
    error: f.error ? wireText(f.error) : undefined,
    release: scope.release,
    environment: scope.environment,
  });
}

/** One call's surfaced failure, as the loop decided it. */
export interface ToolErrorFacts {
  id: string;
  callId: string;
  tool: string;
  toolVersion?: string | undefined;
  error: ToolError;
  attempts: number;
  decision: ToolErrorRecord["decision"];
  /** The text the model reads; null when the run ends here and no model reads it. */
  told: string | null;
  occurredAt: number;
  /** The experiment arm the told text came from; both or neither. */
  experiment?: string | undefined;
  variant?: string | undefined;
}

/** Builds a `tool_error` record. */
export function toolErrorRecord(scope: RecordScope, f: ToolErrorFacts): ToolErrorRecord {
  const { error } = f;
  return {
    type: "tool_error",
    id: f.id,
    run_id: scope.runId,
    call_id: f.callId,
    tool: f.tool,
    ...(f.toolVersion ? { tool_version: f.toolVersion } : {}),
    code: error.code,
    error_class: error.errorClass,
    retryable: error.retryable,
    attempts: f.attempts,
    decision: f.decision,
    told: f.told,
    occurred_at: Math.round(f.occurredAt),
    ...(f.experiment !== undefined && f.variant !== undefined ? { experiment: f.experiment, variant: f.variant } : {}),
    ...(scope.release ? { release: scope.release } : {}),
    ...(scope.environment ? { environment: scope.environment } : {}),
  };
}
