import type { Cancel, Clock, Scheduler, Sleep } from "./time";
import { sleepOn } from "./time";

type Timer = { id: number; at: number; fn: () => void };

// setImmediate runs after pending promise jobs without the 1 ms floor of setTimeout(0).
const nextMacrotask: (fn: () => void) => void =
  typeof globalThis.setImmediate === "function" ? (fn) => void globalThis.setImmediate(fn) : (fn) => void setTimeout(fn, 0);

/**
 * Simulated time for tests and demos: a clock, a scheduler and a sleep that never wait for real.
 *
 * Pending timers fire in time order. With `auto` (the default) the earliest timer fires once the
 * current macrotask and its promise chains have settled (via `setImmediate`), so code that races a
 * tool against a timeout sees the same ordering it would under real timers, only instantly.
 */
export class VirtualTime implements Clock, Scheduler {
  private current: number;
  private nextId = 0;
  private timers: Timer[] = [];
  private pumping = false;
  private readonly auto: boolean;

  /** An abortable sleep on this simulated clock. */
  readonly sleep: Sleep;

  constructor(startMs = 0, options: { auto?: boolean } = {}) {
    this.current = startMs;
    this.auto = options.auto ?? true;
    this.sleep = sleepOn(this);
  }

  /** Current simulated time, epoch milliseconds. */
  now(): number {
    return this.current;
  }

  /** Number of timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /** Jumps the clock to `ms` without firing timers (used to place runs in simulated history). */
  set(ms: number): void {
    this.current = ms;
  }

  /** Schedules `fn` at now + `ms` of simulated time. */
  schedule(fn: () => void, ms: number): Cancel {
    const timer: Timer = { id: ++this.nextId, at: this.current + Math.max(0, ms), fn };
    // Keep sorted by (at, id) so equal deadlines fire in scheduling order.
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1]!.at > timer.at) i--;
    this.timers.splice(i, 0, timer);
    if (this.auto) this.pump();
    return () => {
      const idx = this.timers.indexOf(timer);
      if (idx >= 0) this.timers.splice(idx, 1);
    };
  }

  /** Fires every timer due within the next `ms` and moves the clock forward by `ms`. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (let t = this.timers[0]; t && t.at <= until; t = this.timers[0]) {
      this.timers.shift();
      this.current = Math.max(this.current, t.at);
      t.fn();
    }
    this.current = until;
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    nextMacrotask(() => {
      this.pumping = false;
      const t = this.timers.shift();
      if (!t) return;
      this.current = Math.max(this.current, t.at);
      t.fn();
      if (this.timers.length > 0) this.pump();
    });
  }
}
