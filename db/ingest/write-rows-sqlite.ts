import type { RowBatch } from "@/lib/ingest/rows";
import { writeRollupBatch } from "../rollups/write-rollup";
import type { SqliteStore } from "../store/types";
import { errorFactInsert, factInsert, writtenErrorFactRows, writtenFactRows } from "./fact-rows";
import { batchCalls, endingsSqlite, moveEndingsSqlite } from "./call-endings";
import { applyMovesSqlite, renumberSqlite } from "./renumber-attempts";
import { ingestStatements, runUpsert, spanInsert, toolErrorInsert } from "./statements";
import { tally, writtenFlags, type WriteResult } from "./tally";
import { applyToldStepsSqlite } from "./told-steps";
import { issueOrGroupCodeOf } from "@/lib/triage/group-issue";
import { applyIssuesSqlite } from "../issues/ingest-issues";
import { emitterIdsSqlite, LearnedEmitters } from "./span-emitters";

/**
 * SQLite: the batch in one immediate transaction, prepared statements bound row by row with no
 * promise per row (the embedded engine's fastest path); a row's `changes` says whether it was new.
 */
export function writeRowsSqlite(store: SqliteStore, projectId: string, batch: RowBatch, now: number): Promise<WriteResult> {
  const st = ingestStatements(store.sqlite);
  const learned = new LearnedEmitters(store.sqlite);
  const committed = store.transactionSync((): WriteResult => {
    const context = { projectId, receivedAt: now };
    const written = writtenFlags(batch);
    // The SLO endings of the batch's calls as they stand, before renumbering or new attempts move them.
    const calls = batchCalls(batch);
    const endingsBefore = endingsSqlite(store.sqlite, projectId, calls);
    const moves = renumberSqlite(store.sqlite, projectId, batch);
    const spans = emitterIdsSqlite(store.sqlite, projectId, batch.spans, learned);
    for (let i = 0; i < spans.length; i++) written.spans[i] = st.insertSpan.run(spanInsert.bind(context, spans[i]!)).changes;
    if (batch.spans.length > 0) for (const fact of writtenFactRows(batch, written.spans)) st.insertFact.run(factInsert.bind(context, fact));
    for (let i = 0; i < batch.toolErrors.length; i++) {
      written.toolErrors[i] = st.insertToolError.run(toolErrorInsert.bind(context, batch.toolErrors[i]!.row)).changes;
    }
    if (batch.toolErrors.length > 0) for (const fact of writtenErrorFactRows(batch, written.toolErrors)) st.insertErrorFact.run(errorFactInsert.bind(context, fact));
    for (let i = 0; i < batch.runs.length; i++) written.runs[i] = st.upsertRun.run(runUpsert.bind(context, batch.runs[i]!.row)).changes;
    const { result, aggregates } = tally(projectId, batch, written);
    applyToldStepsSqlite(store, projectId, batch, written, aggregates, now);
    moveEndingsSqlite(store.sqlite, projectId, calls, endingsBefore, aggregates);
    applyMovesSqlite(store.sqlite, projectId, moves, aggregates, () => {
      for (const rollup of aggregates.all()) writeRollupBatch(store.sqlite, rollup);
    });
    applyIssuesSqlite(store, projectId, batch, written, now, issueOrGroupCodeOf);
    return result;
  });
  return committed.then((result) => {
    learned.publish();
    return result;
  });
}
