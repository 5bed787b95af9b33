/** The fields attempt numbering reads and writes. */
export interface NumberableSpan {
  spanId: string;
  runId: string;
  callId: string;
  startedAt: number;
  /** Nanoseconds past `startedAt`; null (read as 0) for a source without sub-millisecond times. */
  startedSubNs: number | null;
  attempt: number | null;
  derived: string | null;
}

/** The key of the call a span is an attempt of. */
export const callKey = (s: { runId: string; callId: string }): string => `${s.runId}\u0000${s.callId}`;

/**
 * Start time to the nanosecond (OTLP carries nanoseconds: retries can start within one millisecond),
 * then span id: the order attempts of one call are numbered in, total for equal starts.
 */
export const attemptOrder = (a: NumberableSpan, b: NumberableSpan): number =>
  a.startedAt - b.startedAt || (a.startedSubNs ?? 0) - (b.startedSubNs ?? 0) || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

/** Adds `field` to a comma-separated derived list once. */
export function withDerived(derived: string | null, field: string): string {
  if (derived === null || derived === "") return field;
  return derived.split(",").includes(field) ? derived : `${derived},${field}`;
}

/** True when the span's attempt number was derived by Faultline. */
export const attemptDerived = (s: { derived: string | null }): boolean => s.derived !== null && s.derived.split(",").includes("attempt");

/**
 * Numbers the attempts a source left unnumbered: spans of one call (same run and call id — or,
 * when the source has no call id, same tool under the same parent, which `readToolSpan` folds into
 * the call id) are attempts 1..n in start order, and `attempt` joins their `derived` list. A call of
 * which any span carries a number is left alone. Spans of one call exported in several requests are
 * renumbered together at storage (db/ingest/renumber-attempts.ts), by the same order.
 */
export function deriveAttempts<S extends NumberableSpan>(spans: S[]): S[] {
  const calls = new Map<string, S[]>();
  const numbered = new Set<string>();
  for (const s of spans) {
    const key = callKey(s);
    if (s.attempt !== null) numbered.add(key);
    else {
      const siblings = calls.get(key);
      if (siblings) siblings.push(s);
      else calls.set(key, [s]);
    }
  }
  for (const [key, siblings] of calls) {
    if (numbered.has(key)) continue;
    siblings.sort(attemptOrder);
    siblings.forEach((s, i) => {
      s.attempt = i + 1;
      s.derived = withDerived(s.derived, "attempt");
    });
  }
  return spans;
}
