import { LIMITS } from "@/lib/contracts";
import type { RowBatch, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { callKey } from "./derive-attempts";
import type { OtlpSpan } from "./decode";
import { resultText, toolResultsOf, type ToolResultMessage } from "./told-messages";

/** What the told errors read of a tool span: extracted (`ToolSpanFields`) or stored. */
export type ToldCallSpan = Pick<SpanRow, "spanId" | "runId" | "callId" | "tool" | "toolVersion" | "release" | "service" | "environment" | "code" | "errorClass" | "retryable" | "attempt" | "startedAt" | "endedAt" | "outcome" | "derived" | "decision"> & { traceId: string };

// What the model was told after a tool call failed, for agents that send only OTLP (docs/otlp.md,
// "What the model was told"). The runtime reports a call's final error as a record of its own; an
// OTLP-only agent's tool result goes back to the model without one, so the failed call's final
// attempt becomes that record here, its told text read from where the convention put the result.

/** Attributes of the tool span itself that carry the result returned to the model, most specific first. */
const OWN_RESULT_ATTRIBUTES = ["gen_ai.tool.call.result", "ai.toolCall.result", "output.value"] as const;

/** A final tool error derived from a failed OTLP tool call, with the span it was read from. */
export type ToldErrorFields = Omit<ToolErrorRow, "source" | "fromSpanId"> & { fromSpanId: string };

/**
 * The first `LIMITS.maxTextLength` characters, the last one an ellipsis when cut, never splitting a
 * surrogate pair: the same cut the runtime applies to a told text too long for the wire.
 */
export function clipText(value: string): string {
  const max = LIMITS.maxTextLength;
  if (value.length <= max) return value;
  const n = max - 1;
  const last = value.charCodeAt(n - 1);
  return `${value.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n)}…`;
}

function ownResult(s: OtlpSpan): string | null {
  for (const key of OWN_RESULT_ATTRIBUTES) {
    const text = resultText(s.attributes.get(key));
    if (text !== null) return text;
  }
  return null;
}

/**
 * The final attempt of every call whose final attempt did not succeed (the highest number, then the
 * latest start). A call whose loop states its decisions (`faultline.decision`: Faultline's runtime)
 * reports its own final error, as does one with a final-error record in the request: neither is derived.
 */
function finalFailures(tools: readonly ToldCallSpan[], reported: ReadonlySet<string>): ToldCallSpan[] {
  const last = new Map<string, ToldCallSpan>();
  for (const t of tools) {
    const key = callKey(t);
    const seen = last.get(key);
    if (!seen || (t.attempt ?? 0) > (seen.attempt ?? 0) || ((t.attempt ?? 0) === (seen.attempt ?? 0) && t.startedAt > seen.startedAt)) last.set(key, t);
  }
  return [...last.values()].filter((t) => t.outcome !== null && t.outcome !== "ok" && t.decision === null && !reported.has(callKey(t))).sort((a, b) => a.endedAt - b.endedAt || (a.spanId < b.spanId ? -1 : 1));
}

/**
 * The tool result a failed call's final attempt was answered with, among the results of later model
 * calls in its trace: the one with its call id when the source sent one, else the first unclaimed
 * result for its tool. The earliest model call at or after the attempt ended wins.
 */
function matchResult(t: ToldCallSpan, results: readonly ToolResultMessage[], claimed: Set<ToolResultMessage>): ToolResultMessage | null {
  const callIdDerived = t.derived !== null && t.derived.split(",").includes("call_id");
  let best: ToolResultMessage | null = null;
  for (const r of results) {
    if (claimed.has(r) || r.traceId !== t.traceId || r.at < t.endedAt) continue;
    const matches = !callIdDerived ? r.callId === t.callId : r.tool === t.tool;
    if (matches && (!best || r.at < best.at)) best = r;
  }
  return best;
}

/** The final error of a failed call's final attempt `t`, told `told` at `at`, with decision `surfaced`. */
export function toldErrorOf(t: ToldCallSpan, told: string, at: number): ToldErrorFields {
  return {
    eventId: t.spanId,
    fromSpanId: t.spanId,
    runId: t.runId,
    callId: t.callId,
    tool: t.tool,
    toolVersion: t.toolVersion,
    release: t.release,
    service: t.service,
    environment: t.environment,
    code: t.code,
    errorClass: t.errorClass,
    retryable: t.retryable,
    attempts: t.attempt,
    decision: "surfaced",
    told: clipText(told),
    derived: "decision",
    occurredAt: at,
    // A told text read from a model call carries no experiment: only the runtime knows its arm.
    experiment: null,
    variant: null,
  };
}

/**
 * Final tool errors with decision `surfaced` for the failed calls of a request whose result to the
 * model is known: carried by the tool span itself (`gen_ai.tool.call.result`, `ai.toolCall.result`,
 * OpenInference `output.value`) or by a tool result in the input of a later model call of the same
 * trace (`toolResultsOf`). The error takes its call's identity, release and classification from the
 * final attempt (re-synced after classification rules ran: `syncToldClassification`), its told text
 * clipped to the told text limit (scrubbed with every told text at normalisation), and is told when
 * the model call that read it started, or when the attempt ended for a result on the tool span.
 * A call that later succeeded, whose result is not in the request, or whose final error is reported
 * (`reported`: the request's final-error records) gives none.
 */
export function toldErrorsOf(tools: readonly ToldCallSpan[], spans: ReadonlyMap<string, OtlpSpan>, reported: readonly { runId: string; callId: string }[] = []): ToldOutcome {
  const failed = finalFailures(tools, new Set(reported.map(callKey)));
  const toolSpanIds = new Set(tools.map((t) => `${t.traceId}/${t.spanId}`));
  const results: ToolResultMessage[] = [];
  for (const [key, s] of spans) if (!toolSpanIds.has(key)) results.push(...toolResultsOf(s));
  const claimed = new Set<ToolResultMessage>();
  const out: ToldErrorFields[] = [];
  for (const t of failed) {
    const own = ownResult(spans.get(`${t.traceId}/${t.spanId}`)!);
    const message = own === null ? matchResult(t, results, claimed) : null;
    if (message) claimed.add(message);
    const told = own ?? message?.text ?? null;
    if (told === null) continue;
    out.push(toldErrorOf(t, told, message ? Math.max(message.at, t.endedAt) : t.endedAt));
  }
  // A result for a call the request does not hold answers one sent earlier: matched at storage,
  // unless the model called that call id again (the call went on; its last attempt decides).
  const here = new Set(tools.map((t) => `${t.traceId}/${t.callId}`));
  const pending = results.filter((r) => !claimed.has(r) && !r.reissued && r.callId !== null && !here.has(`${r.traceId}/${r.callId}`));
  return { told: out, pending };
}

/** The told errors of a request, and the tool results in it that answer calls of earlier requests. */
export interface ToldOutcome {
  told: ToldErrorFields[];
  /** Tool results (with a call id) for calls not in the request, to match against stored calls. */
  pending: ToolResultMessage[];
}

/**
 * Told errors for tool results that arrived after the calls they answer (the model call exported in
 * a later request than the failed tool span): each result is matched, by trace and call id, to the
 * stored call's final attempt when it failed, under the same rules as within one request; a call
 * that already has a final error (`stored.reported`) gets none.
 */
export function toldErrorsFromStored(pending: readonly ToolResultMessage[], stored: { attempts: readonly ToldCallSpan[]; reported: readonly { runId: string; callId: string }[] }): ToldErrorFields[] {
  const failed = finalFailures(stored.attempts, new Set(stored.reported.map(callKey)));
  const claimed = new Set<ToolResultMessage>();
  const out: ToldErrorFields[] = [];
  for (const t of failed) {
    if (t.derived !== null && t.derived.split(",").includes("call_id")) continue;
    const message = matchResult(t, pending, claimed);
    if (!message) continue;
    claimed.add(message);
    out.push(toldErrorOf(t, message.text, Math.max(message.at, t.endedAt)));
  }
  return out;
}

/**
 * Gives each final error derived from a span (`fromSpanId`) the code, class and retryability its span
 * holds after classification rules ran, so the told error counts under the code the call shows.
 */
export function syncToldClassification(rows: RowBatch): void {
  const derived = rows.toolErrors.filter((e) => e.row.fromSpanId !== undefined);
  if (derived.length === 0) return;
  const spans = new Map(rows.spans.map(({ row }) => [row.spanId, row]));
  for (const { row } of derived) {
    const span = spans.get(row.fromSpanId!);
    if (!span) continue;
    row.code = span.code;
    row.errorClass = span.errorClass;
    row.retryable = span.retryable;
  }
}
