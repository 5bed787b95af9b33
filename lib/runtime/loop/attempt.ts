import type { Cancel, Scheduler } from "../common/time";

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

/** Hands a tool body its signal on demand. */
export interface SignalSource {
  /** The signal the body obeys. */
  signal(): AbortSignal;
}

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
 * The body's side of one attempt: whether it settled, a `done` promise made only when someone
 * waits for it (a span held back for an interrupted body), and the signal it is handed. With a
 * ceiling the body gets a signal of its own, aborted when the attempt is interrupted; that
 * controller is created only when the body reads its signal, because most bodies never do and an
 * AbortController is the dearest object of an attempt.
 */
class AttemptBody implements BodyWatch, SignalSource {
  private isSettled = false;
  private resolveDone: (() => void) | undefined;
  private donePromise: Promise<void> | undefined;
  private controller: AbortController | undefined;
  /** Why the attempt was interrupted, once it was; a signal read after that is born aborted. */
  private interrupted: string | undefined;

  constructor(
    private readonly runSignal: AbortSignal,
    private readonly ownSignal: boolean,
  ) {}

  settled(): boolean {
    return this.isSettled;
  }

  get done(): Promise<void> {
    if (!this.donePromise) this.donePromise = this.isSettled ? Promise.resolve() : new Promise<void>((r) => (this.resolveDone = r));
    return this.donePromise;
  }

  settle(): void {
    this.isSettled = true;
    this.resolveDone?.();
  }

  /** The signal the body obeys. */
  signal(): AbortSignal {
    if (!this.ownSignal) return this.runSignal;
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.interrupted !== undefined) this.controller.abort(this.interrupted);
    }
    return this.controller.signal;
  }

  interrupt(kind: string): void {
    if (!this.ownSignal || this.interrupted !== undefined) return;
    this.interrupted = kind;
    this.controller?.abort(kind);
  }
}

/**
 * Runs `body` once, raced against run cancellation, the tool's ceiling and the run's deadline.
 * Whichever comes first decides; the body's signal is aborted so a cooperative tool stops. The
 * loop never waits for an interrupted body: `body` lets the caller find out later whether it did.
 * `body` receives its signal on demand (see {@link AttemptBody}).
 */
export function runAttempt(body: (source: SignalSource) => unknown, limits: AttemptLimits): Promise<AttemptOutcome> {
  if (limits.signal.aborted) return Promise.resolve({ kind: "cancelled", reason: limits.signal.reason });
  if (limits.remainingMs !== undefined && limits.remainingMs <= 0) return Promise.resolve({ kind: "deadline" });
  return new Promise<AttemptOutcome>((resolve) => new AttemptRace(resolve, limits).start(body));
}

/**
 * The race of one attempt. A class, not closures: it runs on every attempt, and one object with
 * methods allocates less than the half-dozen closures it replaces.
 */
class AttemptRace {
  private settled = false;
  private cancelTimer: Cancel | undefined;
  private unregister: (() => void) | undefined;
  private readonly watch: AttemptBody;
  private readonly deadlineFirst: boolean;
  private readonly limitMs: number | undefined;

  constructor(
    private readonly resolve: (outcome: AttemptOutcome) => void,
    private readonly limits: AttemptLimits,
  ) {
    const { timeoutMs, remainingMs } = limits;
    this.deadlineFirst = remainingMs !== undefined && (timeoutMs === undefined || remainingMs <= timeoutMs);
    this.limitMs = this.deadlineFirst ? remainingMs : timeoutMs;
    // Without a ceiling the run's own signal is all the body needs.
    this.watch = new AttemptBody(limits.signal, this.limitMs !== undefined);
  }

  start(body: (source: SignalSource) => unknown): void {
    const { limits, watch } = this;
    this.unregister = limits.onCancel(() => this.finish({ kind: "cancelled", reason: limits.signal.reason }));
    if (this.limitMs !== undefined) {
      this.cancelTimer = limits.scheduler.schedule(() => this.finish(this.deadlineFirst ? { kind: "deadline" } : { kind: "timeout" }), this.limitMs);
    }
    try {
      Promise.resolve(body(watch)).then(
        (value) => {
          watch.settle();
          this.finish({ kind: "ok", value });
        },
        (error: unknown) => {
          watch.settle();
          this.finish({ kind: "error", error });
        },
      );
    } catch (error) {
      watch.settle();
      this.finish({ kind: "error", error });
    }
  }

  private finish(outcome: AttemptOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.cancelTimer?.();
    this.unregister?.();
    if (outcome.kind !== "ok" && outcome.kind !== "error") this.watch.interrupt(outcome.kind);
    outcome.body = this.watch;
    this.resolve(outcome);
  }
}
