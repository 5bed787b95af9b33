import type { Scheduler } from "../common/time";

/** Watches a tool body that was started, so an interrupted attempt can tell whether it was abandoned. */
export interface BodyWatch {
  /** True once the body's promise has settled (or it threw synchronously). */
  settled(): boolean;
  /** Resolves when the body settles; never rejects. Stays pending for a body that never settles. */
  readonly done: Promise<void>;
}

/**
 * How one attempt ended, before classification. `body` is present whenever the tool body was
 * started; for `timeout`, `deadline` and `cancelled` it may still be running.
 */
export type AttemptOutcome = (
  | { kind: "ok"; value: unknown }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" }
  | { kind: "deadline" }
  | { kind: "cancelled"; reason: unknown }
) & { body?: BodyWatch | undefined };

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
 * Whichever comes first decides; the body's signal is aborted so a cooperative tool stops. The
 * loop never waits for an interrupted body: `body` lets the caller find out later whether it did.
 */
export function runAttempt(body: (signal: AbortSignal) => unknown, limits: AttemptLimits): Promise<AttemptOutcome> {
  if (limits.signal.aborted) return Promise.resolve({ kind: "cancelled", reason: limits.signal.reason });
  if (limits.remainingMs !== undefined && limits.remainingMs <= 0) return Promise.resolve({ kind: "deadline" });
  const { timeoutMs, remainingMs } = limits;
  const deadlineFirst = remainingMs !== undefined && (timeoutMs === undefined || remainingMs <= timeoutMs);
  const limitMs = deadlineFirst ? remainingMs : timeoutMs;
  // Without a ceiling the run's own signal is all the body needs; no per-attempt controller.
  const controller = limitMs === undefined ? undefined : new AbortController();
  let bodySettled = false;
  let markSettled!: () => void;
  const body$: BodyWatch = { settled: () => bodySettled, done: new Promise<void>((r) => (markSettled = r)) };
  const settleBody = () => {
    bodySettled = true;
    markSettled();
  };
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    let cancelTimer: (() => void) | undefined;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      cancelTimer?.();
      unregister();
      if (outcome.kind !== "ok" && outcome.kind !== "error") controller?.abort(outcome.kind);
      outcome.body = body$;
      resolve(outcome);
    };
    const unregister = limits.onCancel(() => finish({ kind: "cancelled", reason: limits.signal.reason }));
    if (limitMs !== undefined) {
      cancelTimer = limits.scheduler.schedule(() => finish(deadlineFirst ? { kind: "deadline" } : { kind: "timeout" }), limitMs);
    }
    try {
      Promise.resolve(body(controller?.signal ?? limits.signal)).then(
        (value) => {
          settleBody();
          finish({ kind: "ok", value });
        },
        (error: unknown) => {
          settleBody();
          finish({ kind: "error", error });
        },
      );
    } catch (error) {
      settleBody();
      finish({ kind: "error", error });
    }
  });
}
