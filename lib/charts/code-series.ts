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

/** Failures per bucket stacked by code: the top `n` codes by total, the rest summed into one series. */
export function prepareCodeStack(points: readonly { t: number; code: string; failures: number }[], window: TimeWindow, n: number, now: number): CodeStackData {
  const totalsByCode = new Map<string, number>();
  for (const p of points) {
    const name = p.code === "" ? NO_CODE : p.code;
    totalsByCode.set(name, (totalsByCode.get(name) ?? 0) + p.failures);
  }
  const top = topN([...totalsByCode], n, ([c]) => c, ([, v]) => v);
  const keep = new Set(top.names);
  const series = top.otherCount > 0 ? [...top.names, OTHER_CODES] : top.names;
  const nameOf = (p: { code: string }) => {
    const name = p.code === "" ? NO_CODE : p.code;
    return keep.has(name) ? name : OTHER_CODES;
  };
  const rows = fillBuckets(points, window, nameOf, (p) => p.failures, series, now).map((b) => ({ t: b.t, gap: b.gap, ...b.values }));
  const totals: Record<string, number> = {};
  for (const s of series) totals[s] = 0;
  for (const [c, v] of totalsByCode) totals[keep.has(c) ? c : OTHER_CODES]! += v;
  return { series, rows, totals };
}
