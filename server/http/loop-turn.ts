import { clockMs } from "./node-server";
import { processState } from "../process-state";

const SAMPLE_MS = 50;

interface LoopState {
  timer: NodeJS.Timeout | null;
  /** How late the sampling timer fired last time, and when that was. */
  latest: number;
  latestAt: number;
  /** The process's CPU time (µs) when the timer last fired. */
  latestCpuUs: number;
  /** Ingest requests let in since the timer last fired. */
  admitted: number;
}
const loop = processState("event-loop", (): LoopState => ({ timer: null, latest: 0, latestAt: 0, latestCpuUs: 0, admitted: 0 }));

const cpuUs = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Samples how late a 50 ms timer fires. Node reads sockets in the poll phase of each loop turn and
 * runs timers at the start of the next: while a turn runs, unread requests wait in the kernel, where
 * no stamp or count of the process can see them, so the time since the timer last ran is the only
 * measure of that wait.
 */
export function startLoopSampler(): void {
  if (loop.timer) return;
  let expected = clockMs() + SAMPLE_MS;
  loop.latestAt = clockMs();
  loop.latestCpuUs = cpuUs();
  loop.timer = setInterval(() => {
    const now = clockMs();
    loop.latest = Math.max(0, now - expected);
    loop.latestAt = now;
    loop.latestCpuUs = cpuUs();
    loop.admitted = 0;
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

/**
 * How long the loop has run since it last reached its timers, ms (0 when the sampler is not running):
 * on a saturated loop, the length of the turn in progress, give or take one sampling period.
 */
export function turnMs(now: number = clockMs()): number {
  return loop.timer ? Math.max(0, now - loop.latestAt) : 0;
}

/**
 * The CPU time (all threads) the process used since the loop last reached its timers, ms (0 when
 * the sampler is not running). Far below `turnMs`, the turn was mostly a pause: the machine did not
 * schedule the process (a busy host, a paused VM).
 */
export function turnCpuMs(): number {
  return loop.timer ? Math.max(0, (cpuUs() - loop.latestCpuUs) / 1000) : 0;
}

/** Counts one ingest request let in during the current turn. */
export function noteAdmitted(): void {
  loop.admitted++;
}

/** Ingest requests let in since the loop last reached its timers. */
export function admittedThisTurn(): number {
  return loop.admitted;
}

/** What admission control reads of the event loop (the process's own below; tests hand in their own). */
export interface LoopReadings {
  turnMs(now: number): number;
  turnCpuMs(): number;
  lagMs(now: number): number;
  admittedThisTurn(): number;
  noteAdmitted(): void;
}

/** The process's loop, as sampled by `startLoopSampler` (all zero until it runs). */
export const processLoop: LoopReadings = { turnMs, turnCpuMs, lagMs: eventLoopLagMs, admittedThisTurn, noteAdmitted };
