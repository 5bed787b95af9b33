import { A, type AttemptTuple } from "@/lib/contracts/run-timeline";
import type { AttemptFlag } from "./timeline-types";

/** Known numbers first in numeric order, then unnumbered attempts in start order. */
export function orderAttempts(attempts: readonly AttemptTuple[]): number[] {
  return attempts
    .map((_, i) => i)
    .sort((i, j) => {
      const a = attempts[i]!;
      const b = attempts[j]!;
      const na = a[A.attempt];
      const nb = b[A.attempt];
      if (na !== null && nb !== null && na !== nb) return na - nb;
      if (na === null && nb !== null) return 1;
      if (na !== null && nb === null) return -1;
      return a[A.startedAt] - b[A.startedAt] || i - j;
    });
}

export interface Numbering {
  /** Per attempt, in the given order: what is wrong with its number (empty when nothing). */
  flags: AttemptFlag[][];
  /** Attempt numbers that never arrived, as inclusive ranges. */
  missing: [number, number][];
  /** The highest attempt number seen, 0 when none. */
  maxKnown: number;
}

/** Checks the attempt numbers of one call, in {@link orderAttempts} order, for gaps, repeats and blanks. */
export function checkNumbering(numbers: readonly (number | null)[]): Numbering {
  const flags: AttemptFlag[][] = [];
  const missing: [number, number][] = [];
  const seen = new Set<number>();
  let expectNext = 1;
  let maxKnown = 0;
  for (const n of numbers) {
    const f: AttemptFlag[] = [];
    if (n === null) f.push("attempt_unknown");
    else if (seen.has(n)) f.push("attempt_duplicate");
    else {
      if (n > expectNext) {
        missing.push([expectNext, n - 1]);
        f.push("missing_before");
      }
      seen.add(n);
      expectNext = Math.max(expectNext, n + 1);
      maxKnown = Math.max(maxKnown, n);
    }
    flags.push(f);
  }
  return { flags, missing, maxKnown };
}
