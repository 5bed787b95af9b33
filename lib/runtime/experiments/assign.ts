/** Buckets a run can fall in: splits are whole percent, so 10 000 buckets leave each percent 100 of them. */
export const ASSIGNMENT_BUCKETS = 10_000;

const encoder = new TextEncoder();

/**
 * FNV-1a (32-bit) of the UTF-8 bytes of `text`. Chosen over a cryptographic hash because assignment
 * must be cheap, synchronous and reproducible in any language (the Python SDK and the shared test
 * vectors compute the same number); nothing secret depends on it.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The bucket, in [0, {@link ASSIGNMENT_BUCKETS}), of run `runId` in experiment `experiment`: the
 * FNV-1a hash of `experiment + "\n" + runId`, modulo the bucket count. The experiment id is part of
 * the key so that one run's assignments in two experiments are independent.
 */
export function assignmentBucket(runId: string, experiment: string): number {
  return fnv1a32(`${experiment}\n${runId}`) % ASSIGNMENT_BUCKETS;
}

/** Anything with a traffic share (whole percent, or any non-negative weights). */
export interface Weighted {
  readonly weight: number;
}

/**
 * The variant a run is assigned: variants laid end to end over the buckets in their order, each
 * over a span proportional to its weight, and the run's bucket picks one. Deterministic from
 * (run id, experiment id), so a run sees one wording and a result can be reproduced. Undefined when
 * every weight is zero.
 */
export function assignVariant<T extends Weighted>(runId: string, experiment: string, variants: readonly T[]): T | undefined {
  const total = variants.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
  if (!(total > 0)) return undefined;
  const bucket = assignmentBucket(runId, experiment);
  let upTo = 0;
  for (const v of variants) {
    upTo += Math.max(0, v.weight);
    // bucket / BUCKETS < upTo / total, in integers: no rounding decides an assignment.
    if (v.weight > 0 && bucket * total < upTo * ASSIGNMENT_BUCKETS) return v;
  }
  return undefined;
}
