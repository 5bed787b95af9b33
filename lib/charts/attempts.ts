export interface AttemptsBar {
  label: string;
  calls: number;
}

/** Attempt counts above this share one bar, so a runaway call does not stretch the axis. */
export const ATTEMPTS_BAR_CAP = 10;

/** Calls by the number of attempts they needed; counts over the cap share a "N+" bar. */
export function prepareAttemptsBars(histogram: readonly { attempts: number; calls: number }[]): AttemptsBar[] {
  if (histogram.length === 0) return [];
  const maxShown = Math.min(ATTEMPTS_BAR_CAP, Math.max(...histogram.map((h) => h.attempts)));
  const bars: AttemptsBar[] = [];
  for (let k = 1; k <= maxShown; k++) {
    const calls = histogram.filter((h) => (k === ATTEMPTS_BAR_CAP ? h.attempts >= k : h.attempts === k)).reduce((sum, h) => sum + h.calls, 0);
    bars.push({ label: k === ATTEMPTS_BAR_CAP ? `${k}+ attempts` : k === 1 ? "1 attempt" : `${k} attempts`, calls });
  }
  return bars;
}
