/**
 * True when `error` means "stop", not "failed": an `AbortError`, or anything thrown while `signal`
 * is aborted. Cancellation is never classified or retried; a run being torn down is not a fault.
 */
export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  if (typeof error !== "object" || error === null) return false;
  try {
    return (error as { name?: unknown }).name === "AbortError";
  } catch {
    return false;
  }
}

/** Returns a signal that aborts when any of `signals` aborts, plus a function to detach it. */
export function linkSignals(...signals: (AbortSignal | undefined)[]): { controller: AbortController; detach: () => void } {
  const controller = new AbortController();
  const detachers: (() => void)[] = [];
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    detachers.push(() => signal.removeEventListener("abort", onAbort));
  }
  return { controller, detach: () => detachers.forEach((d) => d()) };
}
