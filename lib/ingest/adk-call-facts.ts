import type { AdkRunEvent } from "@/lib/contracts/adk";
import { parseAttemptFailedDetail, type ToolErrorDetail } from "@/lib/ingest/otlp/adk-detail";

/** What one call's retries (its `attempt_failed` events) say, for its closing event. */
export interface CallRetries {
  /** Attempts before the closing one: the retries counted, or the highest attempt number printed. */
  before: number;
  /** Codes the retried attempts printed (a typed `ToolError`); `null` for an untyped failure. */
  codes: Set<string | null>;
}

/** A tool retry, as opposed to a model retry (which carries usage). */
export const isToolRetry = (e: AdkRunEvent) => e.kind === "attempt_failed" && e.usage == null && !!e.name;

/** Per call id, what its retries say. */
export function callRetries(events: readonly (AdkRunEvent | null)[], calls: readonly string[]): Map<string, CallRetries> {
  const out = new Map<string, CallRetries>();
  events.forEach((e, i) => {
    if (!e || !isToolRetry(e)) return;
    const d = parseAttemptFailedDetail(e.detail ?? null, e.name!);
    let r = out.get(calls[i]!);
    if (!r) out.set(calls[i]!, (r = { before: 0, codes: new Set() }));
    r.before = Math.max(r.before + 1, d?.attempt ?? 0);
    r.codes.add(d?.code ?? null);
  });
  return out;
}

/**
 * Indexes of `tool_error` events that failed the run: under the kit's FAIL_RUN policy the run ends
 * with the terminal detail `tool '<name>' failed: …` right after the tool's last error.
 */
export function runFailingErrors(events: readonly (AdkRunEvent | null)[]): Set<number> {
  const out = new Set<number>();
  const lastError = new Map<string, number>();
  events.forEach((e, i) => {
    if (!e) return;
    if (e.kind === "tool_error" && e.name) lastError.set(e.name, i);
    const m = e.kind !== "tool_error" && e.detail ? /^tool '([^']+)' failed: /.exec(e.detail) : null;
    const failing = m ? lastError.get(m[1]!) : undefined;
    if (failing !== undefined) out.add(failing);
  });
  return out;
}

/** The final error's fields the event sequence determines; each one set is listed in `derived`. */
export interface DerivedError {
  attempts: number | null;
  errorClass: string | null;
  retryable: boolean | null;
  decision: string | null;
  derived: string[];
}

const NOT_PERMITTED = /is not in .*allowlist, so it was not called/;
const NOT_FOUND = /^no tool is registered under /;

/** The class the kit's not-permitted (off the allowlist) and not-found texts name; neither is ever retryable. */
export const untypedKitClass = (text: string): "ToolNotPermittedError" | "ToolNotFoundError" | null =>
  NOT_PERMITTED.test(text) ? "ToolNotPermittedError" : NOT_FOUND.test(text) ? "ToolNotFoundError" : null;

/**
 * What a `tool_error` event's call determines, beyond its text (adk-tool-errors.md §3.4):
 * - attempts: the call's retries plus the failing attempt (the text's `after N attempts` counts every
 *   retry of the tool name in the run, other calls' too); a call never dispatched made none;
 * - a typed error whose code was retried is a transient `ToolFailure` (the loop retries no other
 *   typed error), so retryable;
 * - the kit's not-permitted and not-found texts name their classes, which are never retryable;
 * - decision: `failed_run` when the run's terminal detail names the tool, `cancelled` when the call
 *   was stopped or never dispatched, `surfaced` when the text says why it was not retried (not
 *   idempotent, not permitted, not found). After retries the loop may have stopped for attempts, a
 *   `retry_after` over its cap, the deadline or the tool's budget: the events do not say which, so
 *   that decision stays unknown, as do class and retryable of an error that was not retried.
 */
export function deriveToolError(detail: ToolErrorDetail, retries: CallRetries | undefined, failsRun: boolean): DerivedError {
  const before = retries?.before ?? 0;
  const out: DerivedError = { attempts: null, errorClass: null, retryable: null, decision: null, derived: [] };
  const set = <K extends "attempts" | "errorClass" | "retryable" | "decision">(key: K, value: DerivedError[K], name: string) => {
    out[key] = value;
    out.derived.push(name);
  };
  if (detail.variant === "empty") return out;
  if (detail.variant === "never_dispatched") {
    set("attempts", 0, "attempts");
    set("decision", failsRun ? "failed_run" : "cancelled", "decision");
    return out;
  }
  const attempts = before + 1;
  if (detail.variant === "stopped_idempotent") {
    set("attempts", attempts, "attempts");
    set("decision", "cancelled", "decision");
    return out;
  }
  if (detail.attempts === attempts) out.attempts = attempts;
  else set("attempts", attempts, "attempts");
  if (detail.variant === "typed" && retries?.codes.has(detail.code)) {
    set("errorClass", "ToolFailure", "error_class");
    set("retryable", true, "retryable");
  }
  const text = detail.variant === "text" ? detail.text : "";
  const untypedClass = untypedKitClass(text);
  if (untypedClass) {
    set("errorClass", untypedClass, "error_class");
    set("retryable", false, "retryable");
  }
  const saysWhy = untypedClass !== null || (detail.variant === "text" && detail.notIdempotent);
  if (failsRun) set("decision", "failed_run", "decision");
  else if (saysWhy && before === 0) set("decision", "surfaced", "decision");
  return out;
}
