import { scrubText, type Resource } from "@/lib/contracts";
import type { AdkRunEvent } from "@/lib/contracts/adk";
import { parseAttemptFailedDetail, parseRefusalDetail, parseToolErrorDetail } from "@/lib/ingest/otlp/adk-detail";
import { callRetries, deriveToolError, runFailingErrors } from "./adk-call-facts";
import { derivedColumn } from "./derived";
import type { RowBatch, SpanRow, ToolErrorRow } from "./rows";

export interface RunEventsContext {
  runId: string;
  agent?: string | undefined;
  agentVersion?: string | undefined;
  state?: string | undefined;
  resource?: Resource | undefined;
  /** Length of the whole list; a longer list of the same run is a newer record of it. */
  total: number;
}

const CLOSING = new Set(["tool_result", "tool_error", "tool_refused", "tool_indeterminate"]);
const TERMINAL_STATES = new Set(["completed", "failed", "cancelled", "budget_exhausted", "max_iterations_exceeded", "loop_limit_exceeded"]);
const SOURCE = "adk_run_event";

/**
 * Run events carry no call id. An event is given the call that the next closing event (result,
 * error, refusal, indeterminate) of the same tool name ends — the pairing the kit's own recorder
 * uses; two parallel calls of one tool cannot be told apart in this format.
 */
function callIds(runId: string, events: readonly (AdkRunEvent | null)[]): string[] {
  const next = new Map<string, number>();
  const ids: string[] = new Array(events.length).fill("");
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e?.name) continue;
    if (CLOSING.has(e.kind)) next.set(e.name, i);
    const closing = next.get(e.name);
    ids[i] = closing === undefined ? `${runId}#open:${e.name}` : `${runId}#call@${closing}`;
  }
  return ids;
}

/**
 * What a kit run-event list says about tool attempts and final errors. What the sequence of events
 * determines (attempt numbers of closing events, attempts, class, retryable and decision of final
 * errors: `deriveToolError`) is filled in and named in the row's `derived`; nothing else is.
 */
export function normalizeAdkRunEvents(ctx: RunEventsContext, events: readonly (AdkRunEvent | null)[], into: RowBatch): RowBatch {
  const calls = callIds(ctx.runId, events);
  const retries = callRetries(events, calls);
  const failing = runFailingErrors(events);
  const shared = {
    release: ctx.agentVersion ?? ctx.resource?.release ?? null,
    service: ctx.agent ?? ctx.resource?.service ?? null,
    environment: ctx.resource?.environment ?? null,
  };
  const times: number[] = [];
  events.forEach((e, index) => {
    if (!e) return;
    if (e.at != null) times.push(e.at);
    if (!e.name || e.at == null) return;
    const eventId = `${ctx.runId}#${index}`;
    const span = (fields: Partial<SpanRow>): SpanRow => ({
      spanId: eventId, traceId: null, parentSpanId: null, runId: ctx.runId, callId: calls[index]!, tool: e.name!, toolVersion: null,
      ...shared, sdkName: ctx.resource?.sdk?.name ?? null, sdkVersion: ctx.resource?.sdk?.version ?? null,
      attempt: null, startedAt: e.at!, startedSubNs: null, endedAt: e.at!, outcome: null, code: null, errorClass: null, retryable: null, retryAfterMs: null,
      backoffMs: null, decision: null, permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: SOURCE,
      ...fields,
    });
    const toolError = (fields: Partial<ToolErrorRow>): ToolErrorRow => ({
      eventId, runId: ctx.runId, callId: calls[index]!, tool: e.name!, toolVersion: null, ...shared, code: null, errorClass: null,
      retryable: null, attempts: null, decision: null, told: null, derived: null, occurredAt: e.at!, source: SOURCE, experiment: null, variant: null, ...fields,
    });
    const text = (t: string | null | undefined) => (t ? scrubText(t) : null);
    const detail = e.detail ?? null;
    // A closing event is the attempt after the call's retries.
    const closingAttempt = (retries.get(calls[index]!)?.before ?? 0) + 1;
    switch (e.kind) {
      case "attempt_failed": {
        // A model retry carries usage; only tool retries are attempts of a tool call.
        if (e.usage != null) return;
        const d = parseAttemptFailedDetail(detail, e.name);
        into.spans.push({
          index,
          row: span(
            d
              ? {
                  attempt: d.attempt, outcome: "failed", code: d.code, backoffMs: d.backoffMs, decision: "retried", message: text(d.message),
                  // Only a retryable ToolError is retried, and of those only ToolFailure can be retryable.
                  ...(d.code
                    ? { errorClass: "ToolFailure", retryable: true, derived: derivedColumn(["decision", "error_class", "retryable"]) }
                    : { derived: "decision" }),
                }
              : { outcome: "failed", decision: "retried", message: text(detail), derived: "decision" },
          ),
        });
        return;
      }
      case "tool_error": {
        const d = parseToolErrorDetail(detail);
        const f = deriveToolError(d, retries.get(calls[index]!), failing.has(index));
        const facts = { errorClass: f.errorClass, retryable: f.retryable, decision: f.decision };
        if (d.variant === "never_dispatched") {
          into.toolErrors.push({ index, row: toolError({ ...facts, attempts: f.attempts, derived: derivedColumn(f.derived) }) });
          return;
        }
        const code = d.variant === "typed" ? d.code : null;
        const spanDerived = [...f.derived.filter((n) => n !== "attempts"), "attempt"];
        into.spans.push({
          index,
          row: span({
            attempt: closingAttempt, outcome: d.variant === "stopped_idempotent" ? "cancelled" : "failed", code, ...facts,
            message: text(detail), derived: derivedColumn(spanDerived),
          }),
        });
        // `after N attempts` counts every retry of this tool name in the run, possibly of earlier
        // calls too (the kit's own count); the row keeps this call's own count, marked derived when
        // the text said otherwise or nothing.
        into.toolErrors.push({ index, row: toolError({ code, ...facts, attempts: f.attempts, derived: derivedColumn(f.derived) }) });
        return;
      }
      case "tool_refused": {
        const refusal = parseRefusalDetail(detail);
        if (!refusal) {
          // No `<code>: <message>`: the loop refused the call (off the allowlist, flagged result), not the
          // tool; a refused call is never retried (§3.4 rows 3, 10, 11).
          into.spans.push({
            index,
            row: span({ attempt: closingAttempt, outcome: "refused", retryable: false, message: text(detail), derived: derivedColumn(["attempt", "retryable"]) }),
          });
          return;
        }
        // A refusal is delivered once as data and is never retryable (§3.4 row 1): the kind says so.
        const fields = { code: refusal.code, errorClass: "ToolRefusal", retryable: false, decision: "delivered" };
        const derived = ["decision", "error_class", "retryable"];
        into.spans.push({
          index,
          row: span({ ...fields, attempt: closingAttempt, outcome: "declined", message: text(refusal.message), derived: derivedColumn([...derived, "attempt"]) }),
        });
        into.toolErrors.push({ index, row: toolError({ ...fields, attempts: closingAttempt, told: text(detail), derived: derivedColumn([...derived, "attempts"]) }) });
        return;
      }
      case "tool_indeterminate":
        into.spans.push({ index, row: span({ attempt: closingAttempt, message: text(detail), derived: "attempt" }) });
        return;
      case "tool_result":
        into.spans.push({ index, row: span({ attempt: closingAttempt, outcome: "ok", derived: "attempt" }) });
        return;
      default:
        return;
    }
  });
  // The state is the one thing a run record cannot be stored without; an agent or start the batch
  // does not give is stored unknown (null) and filled in by a later record of the run, never invented.
  if (ctx.state) {
    const startedAt = times.length > 0 ? Math.min(...times) : null;
    const endedAt = times.length > 0 && TERMINAL_STATES.has(ctx.state) ? Math.max(...times) : null;
    into.runs.push({
      index: -1,
      row: {
        recordId: `${ctx.runId}#events@${ctx.total}`, runId: ctx.runId, agent: ctx.agent ?? null, ...shared,
        sdkName: ctx.resource?.sdk?.name ?? null, sdkVersion: ctx.resource?.sdk?.version ?? null,
        startedAt, endedAt, state: ctx.state,
        deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: SOURCE,
      },
    });
  }
  return into;
}
