import { clockMs } from "./node-server";
import { processState } from "../process-state";

const SAMPLE_MS = 50;

interface LoopState {
  timer: NodeJS.Timeout | null;
  /** How late the sampling timer fired last time, and when that was. */
  latest: number;
  latestAt: number;
}
const loop = processState("event-loop", (): LoopState => ({ timer: null, latest: 0, latestAt: 0 }));

/**
 * Samples how late a 50 ms timer fires: while a loop iteration runs, what arrives waits in the
 * kernel, where no stamp or count of the process can see it, so the loop's lateness is added to
 * every wait admission control reckons with.
 */
export function startLoopSampler(): void {
  if (loop.timer) return;
  let expected = clockMs() + SAMPLE_MS;
  loop.latestAt = clockMs();
  loop.timer = setInterval(() => {
    const now = clockMs();
    loop.latest = Math.max(0, now - expected);
    loop.latestAt = now;
    expected = now + SAMPLE_MS;
  }, SAMPLE_MS);
  loop.timer.unref();
}

/**
 * The event loop's current lateness, ms (0 when the sampler is not running). A sampler that has not
 * fired for a while is itself the evidence: the loop is at least that late now.
 */
export function eventLoopLagMs(now: number = clockMs()): number {
  if (!loop.timer) return 0;
  const overdue = now - loop.latestAt - SAMPLE_MS;
  return now - loop.latestAt < 4 * SAMPLE_MS ? Math.max(loop.latest, overdue) : Math.max(0, overdue);
}

/** What admission control reads of the event loop (the process's own below; tests hand in their own). */
export interface LoopReadings {
  lagMs(now: number): number;
}

/** The process's loop, as sampled by `startLoopSampler` (no lateness until it runs). */
export const processLoop: LoopReadings = { lagMs: eventLoopLagMs };
