import { EventEmitter } from "../common/event";
import { systemClock, type Clock } from "../common/time";
import { DEFAULT_CODES } from "../errors/default-codes";
import { ToolFailure } from "../errors/tool-failure";

/** Breaker states. */
export type CircuitState = "closed" | "open" | "half_open";

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long the circuit stays open before one probe call is let through. Default 30 000 ms. */
  halfOpenAfterMs?: number;
  /** Wait suggested to callers turned away while a probe is in flight. Default 1 000 ms. */
  probeRetryAfterMs?: number;
  /** Code of the failure an open circuit produces. Default `upstream_circuit_open`. */
  code?: string;
  clock?: Clock;
}

/** How a finished call should count. `neutral` (cancelled, never reached the upstream) frees a probe slot only. */
export type CallVerdict = "success" | "failure" | "neutral";

/**
 * One breaker per upstream, shared by every tool that calls it, so a dependency that is down costs
 * one fast failure per call instead of a timeout each. An open circuit answers with a transient
 * {@link ToolFailure} carrying `retryAfter`, which the run loop honours or fails closed on.
 */
export class CircuitBreaker {
  private current: CircuitState = "closed";
  private failures = 0;
  private openedAt = 0;
  private probing = false;
  private readonly threshold: number;
  private readonly halfOpenAfterMs: number;
  private readonly probeRetryAfterMs: number;
  private readonly code: string;
  private readonly clock: Clock;
  private readonly stateEmitter = new EventEmitter<{ upstream: string; from: CircuitState; to: CircuitState }>();

  /** Fires on every state change. */
  readonly onStateChange = this.stateEmitter.addListener;

  constructor(
    /** Name of the upstream this breaker guards. */
    readonly upstream: string,
    options: CircuitBreakerOptions = {},
  ) {
    this.threshold = options.failureThreshold ?? 5;
    this.halfOpenAfterMs = options.halfOpenAfterMs ?? 30_000;
    this.probeRetryAfterMs = options.probeRetryAfterMs ?? 1_000;
    this.code = options.code ?? DEFAULT_CODES.circuitOpen;
    this.clock = options.clock ?? systemClock;
    if (!Number.isInteger(this.threshold) || this.threshold < 1) throw new RangeError("failureThreshold must be an integer >= 1");
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
    return new ToolFailure(tool, this.code, {
      transient: true,
      retryAfter: Math.max(0, Math.ceil(waitMs)) / 1000,
      message: `the circuit for ${this.upstream} is ${state === "open" ? "open" : "probing"}; the upstream was not called`,
    });
  }

  /** Reports how an admitted call ended. */
  record(verdict: CallVerdict): void {
    const wasProbe = this.probing;
    this.probing = false;
    if (verdict === "neutral") return;
    if (verdict === "success") {
      this.failures = 0;
      if (this.current !== "closed") this.transition("closed");
      return;
    }
    this.failures++;
    if (wasProbe || this.current === "half_open" || this.failures >= this.threshold) {
      this.openedAt = this.clock.now();
      if (this.current !== "open") this.transition("open");
    }
  }

  private transition(to: CircuitState): void {
    const from = this.current;
    this.current = to;
    if (to === "closed") this.failures = 0;
    this.stateEmitter.emit({ upstream: this.upstream, from, to });
  }
}
