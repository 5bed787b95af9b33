/**
 * Simulated timers for libraries that read the global `setTimeout` (cockatiel does), so a bench can
 * compare them with the runtime on a {@link VirtualTime} without sleeping for real: the same queue
 * fires the earliest timer once the promise chains have settled, on both sides.
 */
import { VirtualTime } from "../lib/runtime";

/** Runs `fn` with the global `setTimeout`/`clearTimeout` on a fresh simulated clock, then restores them. */
export async function withFakeTimers<T>(fn: () => Promise<T>): Promise<T> {
  const time = new VirtualTime(Date.UTC(2026, 0, 1));
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const fakeSet = (callback: () => void, ms?: number) => ({ cancel: time.schedule(callback, ms ?? 0), unref() {} });
  const fakeClear = (handle: unknown) => (handle as { cancel?: () => void } | undefined)?.cancel?.();
  globalThis.setTimeout = fakeSet as unknown as typeof setTimeout;
  globalThis.clearTimeout = fakeClear as typeof clearTimeout;
  try {
    return await fn();
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
}
