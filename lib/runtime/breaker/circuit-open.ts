import type { ToolFailure } from "../errors/tool-failure";

/**
 * What a call turned away by an open circuit does. `fail_fast` ends the call at once with the
 * retryable `circuit_open` failure (the model or the caller decides when to come back);
 * `wait` lets the run loop's gates (deadline, per-tool budget, `maxRetryAfterMs`) decide whether
 * to sleep until the circuit half-opens and try again.
 */
export type WhenOpen = "fail_fast" | "wait";

// Failures an open circuit produced, with the breaker's policy. Kept out of the public
// constructor so an ordinary ToolFailure can never opt into this path by accident.
const turnedAway = new WeakMap<object, { mode: WhenOpen; upstream: string }>();

/** Marks `failure` as produced by an open (or probing) circuit. */
export function markCircuitOpen(failure: ToolFailure, mode: WhenOpen, upstream: string): ToolFailure {
  turnedAway.set(failure, { mode, upstream });
  return failure;
}

/** The open-circuit policy that produced `error`, or `undefined` for any other error. */
export function circuitOpenMode(error: unknown): WhenOpen | undefined {
  return typeof error === "object" && error !== null ? turnedAway.get(error)?.mode : undefined;
}

/** True when `error` is the failure of a call an open or probing circuit turned away. */
export function isCircuitOpen(error: unknown): error is ToolFailure {
  return circuitOpenMode(error) !== undefined;
}
