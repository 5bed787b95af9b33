import { attemptDerived, attemptOrder, callKey } from "@/lib/ingest/otlp/derive-attempts";
import type { RowBatch, SpanRow } from "@/lib/ingest/rows";

/** A stored span with a derived attempt number, with what its rollup counters are keyed by. */
export type StoredAttempt = Pick<
  SpanRow,
  "spanId" | "runId" | "callId" | "startedAt" | "startedSubNs" | "tool" | "code" | "outcome" | "errorClass" | "release" | "service" | "environment" | "derived"
> & { attempt: number };

/** A stored span whose attempt number changes, and the numbers. */
export interface AttemptMove {
  row: StoredAttempt;
  from: number;
  to: number;
}

/**
 * OTLP spans only: their attempts are ranks among sibling spans, which a late sibling shifts. The
 * kit's run events number attempts from the event sequence itself, final in their own request.
 */
export const RENUMBERED_SOURCE = "otlp";

const numberedByFaultline = (row: SpanRow) => row.source === RENUMBERED_SOURCE && row.attempt !== null && attemptDerived(row);

/** The calls (run, call id) of a batch that have spans whose attempt Faultline derived. */
/** Whether any span of the batch has an attempt number Faultline derives (so `renumberPg` may move stored ones). */
export const renumbersAny = (batch: RowBatch): boolean => batch.spans.some((s) => numberedByFaultline(s.row));

export function derivedCalls(batch: RowBatch): { runId: string; callId: string }[] {
  const keys = new Map<string, { runId: string; callId: string }>();
  for (const { row } of batch.spans) if (numberedByFaultline(row)) keys.set(callKey(row), { runId: row.runId, callId: row.callId });
  return [...keys.values()];
}

/**
 * Numbers a call's derived attempts across requests: the batch's spans (numbered within their request)
 * and the call's already-stored derived spans are ranked together by start time (to the nanosecond), then span id. Batch
 * rows take their rank before they are inserted; a stored span whose rank differs is returned as a
 * move (an earlier sibling arrived late). A batch span that is already stored keeps its stored number.
 */
export function planRenumber(batch: RowBatch, stored: readonly StoredAttempt[]): AttemptMove[] {
  const calls = new Map<string, { stored: StoredAttempt[]; fresh: SpanRow[] }>();
  const storedIds = new Set<string>();
  for (const s of stored) {
    storedIds.add(s.spanId);
    const c = calls.get(callKey(s)) ?? { stored: [], fresh: [] };
    c.stored.push(s);
    calls.set(callKey(s), c);
  }
  const freshIds = new Map<string, SpanRow[]>();
  for (const { row } of batch.spans) {
    if (!numberedByFaultline(row) || storedIds.has(row.spanId)) continue;
    // The same span twice in one batch is one attempt; its copies take its number.
    const copies = freshIds.get(row.spanId);
    if (copies) {
      copies.push(row);
      continue;
    }
    freshIds.set(row.spanId, [row]);
    const c = calls.get(callKey(row)) ?? { stored: [], fresh: [] };
    c.fresh.push(row);
    calls.set(callKey(row), c);
  }
  const moves: AttemptMove[] = [];
  for (const c of calls.values()) {
    const ranked = [...c.stored.map((row) => ({ row, stored: true as const })), ...c.fresh.map((row) => ({ row, stored: false as const }))];
    ranked.sort((a, b) => attemptOrder(a.row, b.row));
    ranked.forEach((entry, i) => {
      const to = i + 1;
      if (entry.stored) {
        if (entry.row.attempt !== to) moves.push({ row: entry.row, from: entry.row.attempt, to });
      } else for (const copy of freshIds.get(entry.row.spanId) ?? []) copy.attempt = to;
    });
  }
  return moves;
}
