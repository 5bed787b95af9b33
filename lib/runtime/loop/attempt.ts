import type { Scheduler } from "../common/time";

/** How one attempt ended, before classification. */
export type AttemptOutcome =
  | { kind: "ok"; value: unknown }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" }
  | { kind: "deadline" }
  | { kind: "cancelled"; reason: unknown };

/** Limits of one attempt. */
export interface AttemptLimits {
  /** The run's signal: cancellation of the run. */
  signal: AbortSignal;
  /**
   * Registers a callback for run cancellation and returns its remover. The session keeps one
   * listener on its signal and fans out, because adding and removing an EventTarget listener per
   * attempt costs more than the rest of the loop.
   */
  onCancel: (fn: () => void) => () => void;
  /** The tool's own ceiling, ms. */
  timeoutMs?: number | undefined;
  /** Milliseconds left before the run's deadline. */
  remainingMs?: number | undefined;
  scheduler: Scheduler;
}

/**
 * Runs `body` once, raced against run cancellation, the tool's ceiling and the run's deadline.
 * Whichever comes first decides; the body's signal is aborted so a cooperative tool stops.
 */
export function runAttempt(body: (signal: AbortSignal) => unknown, limits: AttemptLimits): Promise<AttemptOutcome> {
  if (limits.signal.aborted) return Promise.resolve({ kind: "cancelled", reason: limits.signal.reason });
  if (limits.remainingMs !== undefined && limits.remainingMs <= 0) return Promise.resolve({ kind: "deadline" });
  const { timeoutMs, remainingMs } = limits;
  const deadlineFirst = remainingMs !== undefined && (timeoutMs === undefined || remainingMs <= timeoutMs);
  const limitMs = deadlineFirst ? remainingMs : timeoutMs;
  // Without a ceiling the run's own signal is all the body needs; no per-attempt controller.
  const controller = limitMs === undefined ? undefined : new AbortController();
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    let cancelTimer: (() => void) | undefined;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      cancelTimer?.();
      unregister();
      if (outcome.kind !== "ok" && outcome.kind !== "error") controller?.abort(outcome.kind);
      resolve(outcome);
    };
    const unregister = limits.onCancel(() => finish({ kind: "cancelled", reason: limits.signal.reason }));
    if (limitMs !== undefined) {
      cancelTimer = limits.scheduler.schedule(() => finish(deadlineFirst ? { kind: "deadline" } : { kind: "timeout" }), limitMs);
    }
    try {
      Promise.resolve(body(controller?.signal ?? limits.signal)).then(
        (value) => finish({ kind: "ok", value }),
        (error: unknown) => finish({ kind: "error", error }),
      );
    } catch (error) {
      finish({ kind: "error", error });
    }
  });
}
