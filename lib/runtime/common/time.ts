/** A source of the current time in epoch milliseconds. Injected so tests and demos never wait. */
export interface Clock {
  /** Current time, epoch milliseconds. */
  now(): number;
}

/** Waits `ms` milliseconds; rejects with the signal's reason when `signal` aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A uniform random number in [0, 1), like `Math.random`. */
export type Random = () => number;

/** Cancels a scheduled callback. */
export type Cancel = () => void;

/** Runs callbacks later. `unref` asks that the timer not keep a Node process alive. */
export interface Scheduler {
  /** Calls `fn` after `ms` milliseconds and returns a function that cancels it. */
  schedule(fn: () => void, ms: number, options?: { unref?: boolean }): Cancel;
  /**
   * Keeps the process alive until the returned function is called, even if every pending timer is
   * unref'd. Someone awaiting a flush must see it settle; without this, Node exits mid-`await`
   * when only unref'd timers are left. Optional: simulated time has no process to keep alive.
   */
  keepAlive?(): Cancel;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** `setTimeout`-based scheduler. */
export const systemScheduler: Scheduler = {
  schedule(fn, ms, options) {
    const handle = setTimeout(fn, Math.max(0, ms));
    if (options?.unref && typeof handle === "object" && handle !== null && "unref" in handle) {
      (handle as { unref(): void }).unref();
    }
    return () => clearTimeout(handle);
  },
  keepAlive() {
    // One long ref'd interval is the cheapest handle that holds the event loop open.
    const handle = setInterval(() => {}, 1 << 30);
    return () => clearInterval(handle);
  },
};

/** Reason used when a signal aborted without one. */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Builds an abortable {@link Sleep} on top of a scheduler. */
export function sleepOn(scheduler: Scheduler, options?: { unref?: boolean }): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => {
        cancel();
        reject(abortReason(signal));
      };
      const cancel = scheduler.schedule(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        ms,
        options,
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
}

/** Sleep on real timers. These timers are ref'd: a pending retry must keep the process alive. */
export const systemSleep: Sleep = sleepOn(systemScheduler);
