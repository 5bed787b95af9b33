import { scrubText, type Resource } from "@/lib/contracts";
import type { AdkPublishedEvent } from "@/lib/contracts/adk";
import { outcomeOfClass, taxonomyClass } from "@/lib/ingest/otlp/kit-classes";
import type { RowBatch } from "./rows";

const SOURCE = "adk_published";

const attr = (e: AdkPublishedEvent, key: string): string | null =>
  Object.prototype.hasOwnProperty.call(e.attributes, key) && e.attributes[key] !== "" ? e.attributes[key]! : null;

/** The envelope's run id is the raw one; the attribute copy may be pseudonymised by the kit. */
const runIdOf = (e: AdkPublishedEvent) => (e.run_id ? e.run_id : attr(e, "run_id"));

export type PublishedCheck = { ok: true } | { ok: false; message: string };

/**
 * Maps published events. `tool_call_completed.error_code` is an exception class name, so it gives the
 * outcome and class but never a code; published events carry no attempt number, retryable flag or code.
 * Run ends carry no agent name or start time: they are stored with those unknown and merge with the
 * run's `run_started` whichever request it comes in, earlier or later.
 */
export function normalizeAdkPublished(
  resource: Resource | undefined,
  events: readonly { index: number; event: AdkPublishedEvent }[],
  into: RowBatch,
): { rows: RowBatch; refused: { index: number; message: string }[] } {
  const refused: { index: number; message: string }[] = [];
  const shared = { service: resource?.service ?? null, release: resource?.release ?? null, environment: resource?.environment ?? null };
  const sdk = { sdkName: resource?.sdk?.name ?? null, sdkVersion: resource?.sdk?.version ?? null };
  for (const { index, event: e } of events) {
    const runId = runIdOf(e);
    const needs = (...keys: string[]) => {
      const missing = keys.filter((k) => (k === "run_id" ? !runId : attr(e, k) === null));
      if (missing.length) refused.push({ index, message: `${e.type} needs ${missing.join(", ")}` });
      return missing.length === 0;
    };
    switch (e.type) {
      case "tool_call_completed": {
        if (!needs("run_id", "tool", "tool_call_id", "state")) break;
        const state = attr(e, "state")!;
        const errorCode = attr(e, "error_code");
        const duration = Number(attr(e, "duration_ms") ?? "0");
        const outcome = state === "ok" ? "ok" : state === "failed" ? (errorCode ? outcomeOfClass(errorCode) : "failed") : null;
        into.spans.push({
          index,
          row: {
            spanId: e.event_id, traceId: e.trace_id || null, parentSpanId: null, runId: runId!, callId: attr(e, "tool_call_id")!,
            tool: attr(e, "tool")!, toolVersion: null, ...shared, ...sdk, attempt: null,
            startedAt: Number.isSafeInteger(duration) && duration > 0 ? e.occurred_at - duration : e.occurred_at, startedSubNs: null, endedAt: e.occurred_at,
            outcome, code: null, errorClass: taxonomyClass(errorCode), retryable: null, retryAfterMs: null, backoffMs: null, decision: null,
            // `abandoned`: the call was left running when its run ended (the kit publishes it after `run_cancelled`).
            permitted: null, abandoned: state === "abandoned" ? true : null,
            // A state the taxonomy has no outcome for (indeterminate, abandoned) and a foreign class stay visible as text.
            message: outcome === null ? scrubText(`state: ${state}`) : errorCode && !taxonomyClass(errorCode) ? scrubText(errorCode) : null,
            derived: null,
            argsHash: null,
            afterError: null,
            source: SOURCE,
          },
        });
        break;
      }
      case "run_started":
      case "run_completed":
      case "run_failed":
      case "run_cancelled": {
        if (!needs("run_id")) break;
        const ended = e.type !== "run_started";
        into.runs.push({
          index,
          row: {
            recordId: e.event_id, runId: runId!, agent: attr(e, "agent"), ...shared, release: attr(e, "agent_version") ?? shared.release, ...sdk,
            startedAt: ended ? null : e.occurred_at, endedAt: ended ? e.occurred_at : null,
            state: e.type === "run_started" ? "running" : e.type === "run_completed" ? "completed" : e.type === "run_failed" ? "failed" : "cancelled",
            deadlineAt: null, maxToolAttempts: null,
            error: e.type === "run_failed" ? attr(e, "error_code") : e.type === "run_cancelled" ? attr(e, "reason_code") : null,
            unansweredToolUses: null, traceId: e.trace_id || null, spanId: null,
            source: SOURCE,
          },
        });
        break;
      }
      default:
        break;
    }
  }
  return { rows: into, refused };
}
