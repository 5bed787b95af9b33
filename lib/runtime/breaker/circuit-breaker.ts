import { EventEmitter, type Event, type ListenerErrorHandler } from "../common/event";
import { systemClock, type Clock } from "../common/time";
import { DEFAULT_CODES } from "../errors/default-codes";
import type { ToolError } from "../errors/tool-error";
import { ToolFailure } from "../errors/tool-failure";
import { markCircuitOpen, type WhenOpen } from "./circuit-open";

/** Breaker states. */
export type CircuitState = "closed" | "open" | "half_open";

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  failureThreshold?: number;
  /**
   * Consecutive successful probes, one at a time, before the circuit closes again. Default 1.
   * A higher value keeps a flapping upstream from getting full traffic after one lucky call.
   */
  successThreshold?: number;
  /**
   * What a call arriving while the circuit is open does. Default `fail_fast`: it ends at once with
   * the retryable `circuit_open` failure whose `retryAfterMs` is the time until the circuit
   * half-opens. `wait` hands that failure to the run loop's gates, which may sleep and retry.
   */
  whenOpen?: WhenOpen;
  /** How long the circuit stays open before one probe call is let through. Default 30 000 ms. */
  halfOpenAfterMs?: number;
  /** Wait suggested to callers turned away while a probe is in flight. Default 1 000 ms. */
  probeRetryAfterMs?: number;
  /** Code of the failure an open circuit produces. Default `circuit_open`. */
  code?: string;
  /** Time source for the open wait. Default: the wall clock. */
  clock?: Clock;
  /**
   * Receives exceptions thrown by this breaker's listeners (they are swallowed either way and
   * counted in {@link CircuitBreaker.listenerErrors}). The event name is passed along.
   */
  onListenerError?: ListenerErrorHandler;
}

/** Any state change. */
export interface CircuitStateChange {
  readonly upstream: string;
  readonly from: CircuitState;
  readonly to: CircuitState;
}

/** Why the circuit opened: enough consecutive failures while closed, or a failed half-open probe. */
export type BreakReason = "failure_threshold" | "probe_failed";

/** The circuit opened (from closed or half-open). */
export interface CircuitBreakEvent {
  readonly upstream: string;
  readonly from: "closed" | "half_open";
  readonly reason: BreakReason;
  /** Consecutive failures counted when it opened. */
  readonly failures: number;
  /** The failure that opened it, when the caller reported one. */
  readonly error?: ToolError | undefined;
}

/** The circuit closed again after a successful call. */
export interface CircuitResetEvent {
  readonly upstream: string;
  readonly from: "open" | "half_open";
}

/** The open wait passed and a probe call was let through. */
export interface CircuitHalfOpenEvent {
  readonly upstream: string;
}

/** How a finished call should count. `neutral` (cancelled, never reached the upstream) frees a probe slot only. */
export type CallVerdict = "success" | "failure" | "neutral";

/**
 * One breaker per upstream, shared by every tool that calls it, so a dependency that is down costs
 * one fast failure per call instead of a timeout each. An open circuit answers with a retryable
 * `circuit_open` {@link ToolFailure} carrying `retryAfterMs` (the time until it half-opens); by
 * default the call ends there (`whenOpen: "fail_fast"`).
 */
export class CircuitBreaker {
  private current: CircuitState = "closed";
  private failures = 0;
  private successes = 0;
  private openedAt = 0;
  private probing = false;
  private readonly threshold: number;
  private readonly successThreshold: number;
  private readonly whenOpen: WhenOpen;
  private readonly halfOpenAfterMs: number;
  private readonly probeRetryAfterMs: number;
  private readonly code: string;
  private readonly clock: Clock;
  private readonly emitters: {
    readonly state: EventEmitter<CircuitStateChange>;
    readonly brk: EventEmitter<CircuitBreakEvent>;
    readonly reset: EventEmitter<CircuitResetEvent>;
    readonly halfOpen: EventEmitter<CircuitHalfOpenEvent>;
  };

  /** Fires on every state change, before the specific event (`onBreak`, `onReset`, `onHalfOpen`). */
  readonly onStateChange: Event<CircuitStateChange>;
  /** Fires when the circuit opens: from closed (`failure_threshold`) or half-open (`probe_failed`). */
  readonly onBreak: Event<CircuitBreakEvent>;
  /** Fires when the circuit closes again. */
  readonly onReset: Event<CircuitResetEvent>;
  /**
   * Fires when a probe is let through. Like cockatiel, the transition happens lazily: on the first
   * call admitted after `halfOpenAfterMs`, not by a timer.
   */
  readonly onHalfOpen: Event<CircuitHalfOpenEvent>;

  constructor(
    /** Name of the upstream this breaker guards. */
    readonly upstream: string,
    options: CircuitBreakerOptions = {},
  ) {
    this.threshold = options.failureThreshold ?? 5;
    this.successThreshold = options.successThreshold ?? 1;
    this.whenOpen = options.whenOpen ?? "fail_fast";
    this.halfOpenAfterMs = options.halfOpenAfterMs ?? 30_000;
    this.probeRetryAfterMs = options.probeRetryAfterMs ?? 1_000;
    this.code = options.code ?? DEFAULT_CODES.circuitOpen;
    this.clock = options.clock ?? systemClock;
    const report = options.onListenerError;
    this.emitters = {
      state: new EventEmitter("onStateChange", report),
      brk: new EventEmitter("onBreak", report),
      reset: new EventEmitter("onReset", report),
      halfOpen: new EventEmitter("onHalfOpen", report),
    };
    this.onStateChange = this.emitters.state.addListener;
    this.onBreak = this.emitters.brk.addListener;
    this.onReset = this.emitters.reset.addListener;
    this.onHalfOpen = this.emitters.halfOpen.addListener;
    if (!Number.isInteger(this.threshold) || this.threshold < 1) throw new RangeError("failureThreshold must be an integer >= 1");
    if (!Number.isInteger(this.successThreshold) || this.successThreshold < 1) throw new RangeError("successThreshold must be an integer >= 1");
    for (const [name, ms] of [["halfOpenAfterMs", this.halfOpenAfterMs], ["probeRetryAfterMs", this.probeRetryAfterMs]] as const) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`${name} must be a finite number of milliseconds >= 0`);
    }
    if (this.whenOpen !== "fail_fast" && this.whenOpen !== "wait") throw new RangeError("whenOpen must be 'fail_fast' or 'wait'");
  }

  /** Exceptions this breaker's listeners have thrown (swallowed; see `onListenerError`). */
  get listenerErrors(): number {
    const e = this.emitters;
    return e.state.listenerErrors + e.brk.listenerErrors + e.reset.listenerErrors + e.halfOpen.listenerErrors;
  }

  /** Current state; an open circuit whose wait has passed reads as half-open. */
  get state(): CircuitState {
    if (this.current === "open" && this.clock.now() - this.openedAt >= this.halfOpenAfterMs) return "half_open";
    return this.current;
  }

  /**
   * Asks to make a call. Returns `undefined` when the call may proceed (and, when half-open, makes
   * it the probe), or the transient failure to record instead of calling.
   */
  admit(tool: string): ToolFailure | undefined {
    const state = this.state;
    if (state === "closed") return undefined;
    if (state === "half_open" && !this.probing) {
      if (this.current !== "half_open") this.transition("half_open");
      this.probing = true;
      return undefined;
    }
    const waitMs = state === "open" ? this.halfOpenAfterMs - (this.clock.now() - this.openedAt) : this.probeRetryAfterMs;
    const failure = new ToolFailure(tool, this.code, {
      transient: true,
      retryAfterMs: Math.max(0, Math.ceil(waitMs)),
      message: `the circuit for ${this.upstream} is ${state === "open" ? "open" : "probing"}; the upstream was not called`,
    });
    return markCircuitOpen(failure, this.whenOpen, this.upstream);
  }

  /**
   * Reports how an admitted call ended; `error` is the failure, passed on to `onBreak`. Every
   * admitted call must be reported exactly once, or a half-open circuit keeps its probe slot.
   */
  record(verdict: CallVerdict, error?: ToolError): void {
    const wasProbe = this.probing;
    this.probing = false;
    if (verdict === "neutral") return;
    if (verdict === "success") {
      this.failures = 0;
      if (this.current === "half_open" && ++this.successes < this.successThreshold) return;
      this.successes = 0;
      if (this.current !== "closed") this.transition("closed");
      return;
    }
    this.successes = 0;
    this.failures++;
    if (wasProbe || this.current === "half_open" || this.failures >= this.threshold) {
      this.openedAt = this.clock.now();
      if (this.current !== "open") this.transition("open", error);
    }
  }

  // State is fully updated before any listener runs, and listeners cannot throw back in here.
  private transition(to: CircuitState, error?: ToolError): void {
    const from = this.current;
    const failures = this.failures;
    this.current = to;
    this.successes = 0;
    // A probe starts a fresh count, so a failed probe reports one failure.
    if (to === "closed" || to === "half_open") this.failures = 0;
    const { upstream, emitters: e } = this;
    e.state.emit({ upstream, from, to });
    if (to === "open" && from !== "open") {
      e.brk.emit({ upstream, from, reason: from === "half_open" ? "probe_failed" : "failure_threshold", failures, error });
    } else if (to === "closed" && from !== "closed") {
      e.reset.emit({ upstream, from });
    } else if (to === "half_open") {
      e.halfOpen.emit({ upstream });
    }
  }
}
