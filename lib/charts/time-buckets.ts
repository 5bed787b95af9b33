import type { TimeWindow } from "@/lib/contracts/filters";

/** Every bucket start of a window, oldest first. */
export function bucketStarts(window: TimeWindow): number[] {
  const out: number[] = [];
  for (let t = window.from; t < window.to; t += window.stepMs) out.push(t);
  return out;
}

/**
 * A row per bucket with one numeric column per series. A bucket with no row from the server had no
 * attempts: a zero. A bucket that starts after `now` has not happened yet: a gap (null), so the
 * chart shows no bar rather than a misleading zero.
 */
export function fillBuckets<P extends { t: number }>(
  points: readonly P[],
  window: TimeWindow,
  seriesOf: (p: P) => string,
  valueOf: (p: P) => number,
  series: readonly string[],
  now: number,
): { t: number; gap: boolean; values: Record<string, number | null> }[] {
  const byT = new Map<number, Map<string, number>>();
  for (const p of points) {
    const m = byT.get(p.t) ?? new Map<string, number>();
    m.set(seriesOf(p), (m.get(seriesOf(p)) ?? 0) + valueOf(p));
    byT.set(p.t, m);
  }
  return bucketStarts(window).map((t) => {
    const gap = t > now;
    const m = byT.get(t);
    const values: Record<string, number | null> = {};
    for (const s of series) values[s] = gap ? null : (m?.get(s) ?? 0);
    return { t, gap, values };
  });
}
