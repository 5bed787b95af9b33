/**
 * Rounds a delay to two significant digits: 2345 ms → 2300 ms. Keeps the per-release histogram
 * small (at most ~90 values per decade) while a median read from it stays within 5 %.
 */
export function quantizeDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(ms)) - 1);
  return Math.round(ms / magnitude) * magnitude;
}

/** The q-quantile (nearest rank) of a histogram of value → count, or null when empty. */
export function histogramQuantile(histogram: ReadonlyMap<number, number>, q: number): number | null {
  const entries = [...histogram.entries()].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [value, count] of entries) {
    seen += count;
    if (seen >= rank) return value;
  }
  return entries[entries.length - 1]![0];
}

/** Human form of a delay: `850 ms`, `2 s`, `1.5 min`. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toPrecision(3))} s`;
  if (ms < 3_600_000) return `${Number((ms / 60_000).toPrecision(3))} min`;
  return `${Number((ms / 3_600_000).toPrecision(3))} h`;
}
