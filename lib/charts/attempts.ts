export interface AttemptsBar {
  label: string;
  calls: number;
}

/** Calls by attempts needed, from the rollup counts (first attempts, second attempts). */
export function prepareAttemptsBars(a: { single: number; retried: number; maxAttempts: number }): AttemptsBar[] {
  if (a.single + a.retried === 0) return [];
  const retriedLabel = a.maxAttempts > 2 ? `2–${a.maxAttempts} attempts` : "2 attempts";
  return [
    { label: "1 attempt", calls: a.single },
    { label: retriedLabel, calls: a.retried },
  ];
}
