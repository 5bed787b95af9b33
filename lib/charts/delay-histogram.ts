import { formatMs } from "./format";

export interface DelayBar {
  bucketMs: number;
  label: string;
  retryAfter: number;
  backoff: number;
}

/**
 * Histogram bars from the first to the last non-empty bucket (both kinds), labelled "≤ bound".
 * Empty buckets inside that span stay as zeros so the x axis keeps its scale.
 */
export function prepareDelayHistogram(buckets: readonly { bucketMs: number; retryAfter: number; backoff: number }[]): DelayBar[] {
  const used = buckets.map((b, i) => (b.retryAfter + b.backoff > 0 ? i : -1)).filter((i) => i >= 0);
  if (used.length === 0) return [];
  const first = used[0]!;
  const last = used[used.length - 1]!;
  return buckets.slice(first, last + 1).map((b) => ({ ...b, label: `≤ ${formatMs(b.bucketMs)}` }));
}
