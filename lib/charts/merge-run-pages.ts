import { A, type AttemptTuple, type RunTimeline, type TimelineCall } from "@/lib/contracts/runs";

const STRING_FIELDS = [A.outcome, A.code, A.errorClass, A.decision, A.traceId] as const;
const callKey = (c: Pick<TimelineCall, "callId" | "tool">) => `${c.tool}\u0000${c.callId}`;

/**
 * The run so far with its next page appended: the page's attempts moved onto the run's `t0` and
 * strings dictionary, a call that continues from the previous page gets its further attempts (and
 * the final error the page repeats), and new calls follow in the page's order. Told steps a page
 * repeats for such a call are kept once. The totals stay the first page's; `next` is the page's.
 */
export function appendRunPage(run: RunTimeline, page: RunTimeline): RunTimeline {
  const strings = [...run.strings];
  const index = new Map(strings.map((s, i) => [s, i]));
  const intern = (i: number | null): number | null => {
    if (i === null) return null;
    const value = page.strings[i]!;
    let at = index.get(value);
    if (at === undefined) {
      at = strings.push(value) - 1;
      index.set(value, at);
    }
    return at;
  };
  // A run whose first page had no attempts (only errors) has no clock yet: the page's is taken.
  const t0 = run.calls.some((c) => c.attempts.length > 0) ? run.t0 : page.t0;
  const shift = page.t0 - t0;
  const moved = (a: AttemptTuple): AttemptTuple => {
    const out = [...a] as AttemptTuple;
    out[A.startedAt] = a[A.startedAt] + shift;
    out[A.endedAt] = a[A.endedAt] + shift;
    for (const f of STRING_FIELDS) out[f] = intern(a[f]);
    return out;
  };
  const calls = run.calls.map((c) => ({ ...c }));
  const byKey = new Map(calls.map((c) => [callKey(c), c]));
  for (const c of page.calls) {
    const attempts = c.attempts.map(moved);
    const known = byKey.get(callKey(c));
    if (known) {
      known.attempts = [...known.attempts, ...attempts];
      known.error = c.error ?? known.error;
    } else {
      const added = { ...c, attempts };
      calls.push(added);
      byKey.set(callKey(c), added);
    }
  }
  const told = new Set(run.toldSteps.map((s) => JSON.stringify(s)));
  return {
    ...run,
    t0,
    strings,
    run: page.run ?? run.run,
    calls,
    toldSteps: [...run.toldSteps, ...page.toldSteps.filter((s) => !told.has(JSON.stringify(s)))],
    codedBy: { ...run.codedBy, ...page.codedBy },
    page: { ...run.page, next: page.page.next },
  };
}
