import type { TimeWindow } from "@/lib/contracts/filters";
import { fillBuckets } from "./time-buckets";
import { topN } from "./top-n";

/** The series name of the codes beyond the top N, and of failures without a code. */
export const OTHER_CODES = "(other codes)";
export const NO_CODE = "(no code)";

export interface CodeStackData {
  series: string[];
  rows: ({ t: number; gap: boolean } & Record<string, number | null | boolean>)[];
  totals: Record<string, number>;
}

/**
 * Failures per bucket stacked by code: the top `n` codes by total, the rest summed into one series.
 * `rest` holds failures the server already summed (codes beyond the ones it names): they join "other".
 */
export function prepareCodeStack(
  points: readonly { t: number; code: string; failures: number }[],
  window: TimeWindow,
  n: number,
  now: number,
  rest: readonly { t: number; failures: number }[] = [],
): CodeStackData {
  const totalsByCode = new Map<string, number>();
  for (const p of points) {
    const name = p.code === "" ? NO_CODE : p.code;
    totalsByCode.set(name, (totalsByCode.get(name) ?? 0) + p.failures);
  }
  const top = topN([...totalsByCode], n, ([c]) => c, ([, v]) => v);
  const keep = new Set(top.names);
  const restTotal = rest.reduce((s, r) => s + r.failures, 0);
  const series = top.otherCount > 0 || restTotal > 0 ? [...top.names, OTHER_CODES] : top.names;
  const nameOf = (p: { code?: string }) => {
    if (p.code === undefined) return OTHER_CODES;
    const name = p.code === "" ? NO_CODE : p.code;
    return keep.has(name) ? name : OTHER_CODES;
  };
  const all: readonly { t: number; code?: string; failures: number }[] = restTotal > 0 ? [...points, ...rest] : points;
  const rows = fillBuckets(all, window, nameOf, (p) => p.failures, series, now).map((b) => ({ t: b.t, gap: b.gap, ...b.values }));
  const totals: Record<string, number> = {};
  for (const s of series) totals[s] = 0;
  for (const [c, v] of totalsByCode) totals[keep.has(c) ? c : OTHER_CODES]! += v;
  if (restTotal > 0) totals[OTHER_CODES]! += restTotal;
  return { series, rows, totals };
}
