import type { CallVerdict } from "../breaker/circuit-breaker";
import { linkSignals } from "../common/abort";
import type { ToolError } from "../errors/tool-error";

/** Options of one call. */
export interface CallOptions {
  /**
   * Cancels this call only: the attempt in flight is aborted (its body's `signal` fires), a
   * backoff is cut short, and the call ends `cancelled`. The run goes on; other calls are
   * untouched. This is where a framework's per-call signal goes (the AI SDK's `abortSignal`).
   */
  signal?: AbortSignal;
}

/** The signals one call's attempts obey: the run's alone, or the run's linked with the call's own. */
export interface CallScope {
  readonly signal: AbortSignal;
  readonly onCancel: (fn: () => void) => () => void;
  /** Why the call was cancelled, once `signal` has aborted. */
  reason(): string;
}

/**
 * The run's signal linked with one call's. Built only for calls that bring a signal, so the
 * common path keeps the single fanned-out listener of the run. `runReason` explains a cancelled
 * run; the run's reason wins, since a run that ended or was cancelled explains every call in it.
 */
export function linkedCallScope(run: AbortSignal, callSignal: AbortSignal, runReason: () => string): CallScope & { detach(): void } {
  const linked = linkSignals(run, callSignal);
  const signal = linked.controller.signal;
  return {
    signal,
    onCancel: (fn) => {
      signal.addEventListener("abort", fn, { once: true });
      return () => signal.removeEventListener("abort", fn);
    },
    reason: () => (run.aborted ? runReason() : callCancelReason(callSignal)),
    detach: linked.detach,
  };
}

/**
 * The call's signal, read defensively: anything without an `aborted` flag and `addEventListener`
 * is ignored. Checked by shape, not `instanceof`, so a signal from another realm or polyfill works.
 */
export function readSignal(options: CallOptions): AbortSignal | undefined {
  try {
    const signal = (options as { signal?: unknown } | undefined)?.signal as Partial<AbortSignal> | null | undefined;
    return typeof signal === "object" && signal !== null && typeof signal.aborted === "boolean" && typeof signal.addEventListener === "function"
      ? (signal as AbortSignal)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the model and the span are told when a call's own signal cancelled it. */
export function callCancelReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && reason.trim() !== "" ? reason : "the call was cancelled by the caller";
}

/** What an attempt's ending tells its circuit breaker. */
export function breakerVerdict(error: ToolError): CallVerdict {
  switch (error.errorClass) {
    case "ToolFailure":
    case "ToolTimedOutError":
      return "failure";
    case "ToolRefusal":
    case "ToolResultError":
      return "success"; // the upstream answered; what it said is not an outage
    default:
      return "neutral";
  }
}
