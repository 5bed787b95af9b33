/**
 * Little's law at the door: how long a request let in now would wait behind the ingest requests the
 * process already holds (let in, not yet answered), from how fast it answers them. The rate counts
 * only time during which some were in progress, so a quiet spell does not make the process look
 * slow: it is the rate the process drains a queue at, not the rate requests happen to come in.
 * Pure bookkeeping over the times it is handed (tests drive it with their own clock).
 */
export class DrainEstimate {
  private inProgress = 0;
  /** Answers per busy millisecond, smoothed over windows (0 until a first window closes). */
  private rate = 0;
  private windowDone = 0;
  private windowBusyMs = 0;
  private lastEventAt: number;

  constructor(
    now: number,
    /** Busy time a window gathers before its rate is folded into the estimate. */
    private readonly windowMs = 200,
    /** Below this many requests held, none is turned away: no queue to speak of (a cold start's slow first answers). */
    private readonly minQueue = 8,
  ) {
    this.lastEventAt = now;
  }

  /** Requests let in and not yet answered. */
  get held(): number {
    return this.inProgress;
  }

  private advance(now: number): void {
    if (this.inProgress > 0) this.windowBusyMs += Math.max(0, now - this.lastEventAt);
    this.lastEventAt = Math.max(this.lastEventAt, now);
    if (this.windowBusyMs < this.windowMs) return;
    const sample = this.windowDone / this.windowBusyMs;
    this.rate = this.rate === 0 ? sample : 0.5 * this.rate + 0.5 * sample;
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
   * not shown it can serve it. A stall shows too: each window of busy time that answers nothing
   * halves the rate.
   */
  expectedWaitMs(now: number): number {
    this.advance(now);
    if (this.inProgress < this.minQueue) return 0;
    return this.rate > 0 ? this.inProgress / this.rate : Infinity;
  }
}
