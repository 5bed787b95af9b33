import { scrubText, type IngestRecord, type Resource } from "@/lib/contracts";
import type { RowBatch, SpanRow } from "./rows";

const scrubOrNull = (text: string | null | undefined) => (text == null ? null : scrubText(text));

/**
 * Faultline SDKs other than the TypeScript runtime that send native batches, by `resource.sdk.name`:
 * the Conformance page lists their spans as an emitter of their own rather than as the runtime's.
 */
export const NATIVE_SDK_CONVENTIONS: Readonly<Record<string, string>> = { "faultline-python": "native_python" };

/** Maps validated native records onto rows, applying the batch `resource` where a record is silent. */
export function normalizeNative(
  resource: Resource | undefined,
  records: readonly { index: number; record: IngestRecord }[],
  into: RowBatch,
): RowBatch {
  const base = {
    service: resource?.service ?? null,
    release: resource?.release ?? null,
    environment: resource?.environment ?? null,
    sdkName: resource?.sdk?.name ?? null,
    sdkVersion: resource?.sdk?.version ?? null,
  };
  const convention = base.sdkName === null ? undefined : NATIVE_SDK_CONVENTIONS[base.sdkName];
  // Rows are written out field by field: spreads (`...shared`) in these literals cost more than the rest of the mapping.
  for (const { index, record: r } of records) {
    const shared = {
      service: r.service ?? base.service,
      release: r.release ?? base.release,
      environment: r.environment ?? base.environment,
    };
    switch (r.type) {
      case "run":
        into.runs.push({
          index,
          row: {
            recordId: r.id,
            runId: r.run_id,
            agent: r.agent,
            service: shared.service,
            release: r.agent_version ?? shared.release,
            environment: shared.environment,
            sdkName: base.sdkName,
            sdkVersion: base.sdkVersion,
            startedAt: r.started_at,
            endedAt: r.ended_at ?? null,
            state: r.state,
            deadlineAt: r.deadline_at ?? null,
            maxToolAttempts: r.max_tool_attempts ?? null,
            error: scrubOrNull(r.error),
            unansweredToolUses: r.unanswered_tool_uses ?? null,
            traceId: null,
            spanId: null,
            source: "native",
          },
        });
        break;
      case "tool_call_span": {
        const row: SpanRow = {
          spanId: r.id,
          traceId: r.trace_id ?? null,
          parentSpanId: r.parent_span_id ?? null,
          runId: r.run_id,
          callId: r.call_id,
          tool: r.tool,
          toolVersion: r.tool_version ?? null,
          service: shared.service,
          release: shared.release,
          environment: shared.environment,
          sdkName: base.sdkName,
          sdkVersion: base.sdkVersion,
          attempt: r.attempt,
          startedAt: r.started_at,
          startedSubNs: null,
          endedAt: r.ended_at,
          outcome: r.outcome,
          code: r.code ?? null,
          errorClass: r.error_class ?? null,
          retryable: r.retryable ?? null,
          retryAfterMs: r.retry_after_ms ?? null,
          backoffMs: r.backoff_ms ?? null,
          decision: r.decision ?? null,
          permitted: r.permitted ?? null,
          abandoned: r.abandoned ?? null,
          message: scrubOrNull(r.message),
          derived: null,
          argsHash: r.args_hash ?? null,
          // null on the wire (the runtime knows the call answers no error) is stored as '', absent as unknown.
          afterError: r.after_error === null ? "" : (r.after_error ?? null),
          source: "native",
        };
        if (convention) row.emitter = { service: shared.service, convention };
        into.spans.push({ index, row });
        break;
      }
      case "tool_error":
        into.toolErrors.push({
          index,
          row: {
            eventId: r.id,
            runId: r.run_id,
            callId: r.call_id,
            tool: r.tool,
            toolVersion: r.tool_version ?? null,
            service: shared.service,
            release: shared.release,
            environment: shared.environment,
            code: r.code,
            errorClass: r.error_class,
            retryable: r.retryable,
            attempts: r.attempts,
            decision: r.decision,
            told: r.told === null ? null : scrubText(r.told),
            derived: null,
            occurredAt: r.occurred_at,
            source: "native",
            experiment: r.experiment ?? null,
            variant: r.variant ?? null,
          },
        });
        break;
    }
  }
  return into;
}
