import type { Store } from "../client";
import { BatchAggregates } from "./aggregate";
import type { RowBatch } from "@/lib/ingest/rows";
import { ingestStatements } from "./statements";

export interface WriteResult {
  /** Request indexes of records that were already stored (same project, type and id). */
  duplicateIndexes: number[];
  stored: number;
}

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/**
 * Stores a batch of normalised rows in one transaction: the rows themselves, then the rollups,
 * codes catalogue and run counters of the rows that were new. Duplicates change nothing.
 */
export function writeRows(store: Store, projectId: string, batch: RowBatch, now: number = Date.now()): WriteResult {
  const st = ingestStatements(store.sqlite);
  const run = store.sqlite.transaction((): WriteResult => {
    const duplicateIndexes: number[] = [];
    const agg = new BatchAggregates(projectId);
    let stored = 0;
    for (const { index, row: r } of batch.spans) {
      const info = st.insertSpan.run(
        projectId, r.spanId, r.traceId, r.parentSpanId, r.runId, r.callId, r.tool, r.toolVersion, r.release,
        r.service, r.environment, r.sdkName, r.sdkVersion, r.attempt, r.startedAt, r.endedAt, r.outcome, r.code,
        r.errorClass, bool(r.retryable), r.retryAfterMs, r.backoffMs, r.decision, bool(r.permitted), bool(r.abandoned),
        r.message, r.source, now,
      );
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addSpan(r);
      }
    }
    for (const { index, row: r } of batch.toolErrors) {
      const info = st.insertToolError.run(
        projectId, r.eventId, r.runId, r.callId, r.tool, r.toolVersion, r.release, r.service, r.environment, r.code,
        r.errorClass, bool(r.retryable), r.attempts, r.decision, r.told, r.occurredAt, r.source, now,
      );
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addToolError(r);
      }
    }
    for (const { index, row: r } of batch.runs) {
      const info = st.upsertRun.run(
        projectId, r.recordId, r.runId, r.agent, r.release, r.service, r.environment, r.sdkName, r.sdkVersion,
        r.startedAt, r.endedAt, r.state, r.deadlineAt, r.maxToolAttempts, r.error, r.source, now,
      );
      if (info.changes === 0) duplicateIndexes.push(index);
      else {
        stored++;
        agg.addRun(r);
      }
    }
    const sixHourly = agg.sixHourly();
    for (const values of agg.spanRollups.values()) st.upsertSpanRollupHourly.run(values);
    for (const values of sixHourly.spanRollups.values()) st.upsertSpanRollup6h.run(values);
    for (const values of agg.delayBuckets.values()) st.upsertDelayBucketHourly.run(values);
    for (const values of sixHourly.delayBuckets.values()) st.upsertDelayBucket6h.run(values);
    for (const values of agg.attemptCounts.values()) st.upsertAttemptCountHourly.run(values);
    for (const values of sixHourly.attemptCounts.values()) st.upsertAttemptCount6h.run(values);
    for (const values of agg.errorRollups.values()) st.upsertErrorRollup.run(values);
    for (const values of agg.codes.values()) st.upsertCode.run(values);
    for (const values of agg.runStats.values()) st.upsertRunStats.run(values);
    for (const values of agg.conformance.values()) st.upsertConformance.run(values);
    for (const values of agg.runTools.values()) st.insertRunTool.run(values);
    return { duplicateIndexes, stored };
  });
  return run.immediate();
}
