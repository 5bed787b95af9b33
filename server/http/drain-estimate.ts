/**
 * Little's law at the door: how long a request let in now would wait behind the ingest requests the
 * process already holds (let in, not yet answered), from how fast it answers them. The rate counts
 * only time during which some were in progress, so a quiet spell does not make the process look
 * slow: it is the rate the process drains a queue at, not the rate requests happen to come in.
 * Pure bookkeeping over the times it is handed (tests drive it with their own clock).
 */
export class DrainEstimate {
  private inProgress = 0;
  /** Answers and busy ms of closed windows, each window weighed down by the busy time since it closed. */
  private done = 0;
  private busyMs = 0;
  private windowDone = 0;
  private windowBusyMs = 0;
  private lastEventAt: number;
  private readonly windowMs: number;
  private readonly horizonMs: number;
  private readonly minQueue: number;

  constructor(
    now: number,
    options: {
      /** Busy time a window gathers before it counts in the rate. */
      windowMs?: number;
      /**
       * Busy time over which an old window's weight falls to 1/e. Long enough that a pause of the
       * whole machine (a second with nothing answered) moves the rate by a fraction, not by half:
       * the handler's check (Admission.admit) is there for a slowdown that lasts.
       */
      horizonMs?: number;
      /** Below this many requests held, none is turned away: no queue to speak of (a cold start's slow first answers). */
      minQueue?: number;
    } = {},
  ) {
    this.lastEventAt = now;
    this.windowMs = options.windowMs ?? 200;
    this.horizonMs = options.horizonMs ?? 3000;
    this.minQueue = options.minQueue ?? 8;
  }

  /** Requests let in and not yet answered. */
  get held(): number {
    return this.inProgress;
  }

  /** Answers per busy millisecond (0 until a first window closes). */
  get ratePerMs(): number {
    return this.busyMs > 0 ? this.done / this.busyMs : 0;
  }

  private advance(now: number): void {
    if (this.inProgress > 0) this.windowBusyMs += Math.max(0, now - this.lastEventAt);
    this.lastEventAt = Math.max(this.lastEventAt, now);
    if (this.windowBusyMs < this.windowMs) return;
    const keep = Math.exp(-this.windowBusyMs / this.horizonMs);
    this.done = this.done * keep + this.windowDone;
    this.busyMs = this.busyMs * keep + this.windowBusyMs;
    this.windowDone = 0;
    this.windowBusyMs = 0;
  }

  enter(now: number): void {
    this.advance(now);
    this.inProgress++;
  }

  leave(now: number): void {
    this.windowDone++;
    this.advance(now);
    this.inProgress = Math.max(0, this.inProgress - 1);
  }

  /**
   * A request stops counting without being answered: it waits for its client's bytes, not for
   * the process, so it neither lengthens the queue nor (when it ends) speeds up the drain rate.
   */
  setAside(now: number): void {
    this.advance(now);
    this.inProgress = Math.max(0, this.inProgress - 1);
  }

  /**
   * The wait, ms, of a request let in now: those held divided by the drain rate. With no rate yet
   * (nothing answered since start), a queue past `minQueue` is taken as too long: the process has
   * not shown it can serve it. A stall shows too, in proportion to its share of the recent busy time.
   */
  expectedWaitMs(now: number): number {
    this.advance(now);
    if (this.inProgress < this.minQueue) return 0;
    const rate = this.ratePerMs;
    return rate > 0 ? this.inProgress / rate : Infinity;
  }
}
