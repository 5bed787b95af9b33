/**
 * Whether the ingest queue is a standing one, read from the waits requests really had (CoDel's
 * test, Nichols and Jacobson 2012): a queue is bad when the shortest wait over a whole interval was
 * past the target, not when one wait was. A burst, a slow transaction (a WAL checkpoint, a GC pause)
 * or a second of the machine running slow lengthens the waits of the requests behind it, and the
 * queue drains by itself once it has passed: some request in the interval then waited less than the
 * target. A queue that does not drain keeps every wait above it.
 *
 * The waits are those of answered requests (from the door letting one in to its answer, less the time
 * it spent waiting for its client's bytes), so the test lags the queue by the wait itself: it says
 * whether to shorten a queue that is there, not how fast one is building (DrainEstimate does that).
 * Pure bookkeeping over the times it is handed (tests drive it with their own clock).
 */
export class StandingQueue {
  /** When an answered request first waited past the target, with none under it since; null otherwise. */
  private aboveSince: number | null = null;

  constructor(
    /** The wait past which a request waited too long (the queue budget). */
    private readonly targetMs: number,
    /** How long every answered request must have waited past the target for the queue to be standing. */
    private readonly intervalMs: number,
  ) {}

  /** A request let in was answered at `now` after waiting `waitedMs` in the process. */
  answered(waitedMs: number, now: number): void {
    if (waitedMs < this.targetMs) this.aboveSince = null;
    else this.aboveSince ??= now;
  }

  /** The queue ran empty: whatever it held has drained. */
  emptied(): void {
    this.aboveSince = null;
  }

  /** Whether every request answered over the last interval, up to `now`, waited past the target. */
  standing(now: number): boolean {
    return this.aboveSince !== null && now - this.aboveSince >= this.intervalMs;
  }
}
