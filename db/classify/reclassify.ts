import { getTableName } from "drizzle-orm";
import type { Classified, Ruleset } from "@/lib/classify/classify";
import { BatchAggregates, type ClassifiedSpan } from "../ingest/aggregate";
import { currentFields, fieldsDiffer, reclassified, selectStoredFailures, type StoredFailure } from "./stored-failures";
import { codeCatalogue } from "../schema/codes";
import { delayHistograms } from "../schema/delay-histograms";
import { spanRollups } from "../schema/span-rollups";
import type { Store } from "../store/types";
import { writeAggregates } from "./write-aggregates";
import { endingsOf, moveEndings } from "../ingest/call-endings";
import { lockToldRuns } from "../ingest/told-steps";
import { pruneRunCodes } from "./prune-run-codes";
import { resolveNamedGroupIssues } from "../issues/resolve-named-groups";
import { recordMovedCodes, type CodeMove } from "./config-events";

// Counters a move can leave at zero; a recount would have no such row.
const PRUNE = [
  ...spanRollups.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = @project AND spans = 0`),
  ...delayHistograms.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = @project AND count = 0`),
  ...codeCatalogue.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = @project AND spans = 0 AND errors = 0`),
];

/** What one chunk of re-classification did. */
export interface ReclassifyChunk {
  examined: number;
  changed: number;
}

/**
 * Re-classifies up to `limit` stored failures of a project classified at an older revision than the
 * ruleset's, in one transaction: each is classified again from its emitter's own fields (never from an
 * earlier rule's result), its span and facts are updated, and every rollup counter that depends on the
 * classification moves from the old values to the new (`BatchAggregates.moveClassification`), so the
 * rollups stay equal to a recount. Call until it examines nothing.
 */
export async function reclassifyChunk(store: Store, projectId: string, ruleset: Ruleset, limit = 500): Promise<ReclassifyChunk> {
  return store.transaction(async (tx) => {
    const rows = await tx.all<StoredFailure>(`${selectStoredFailures("f.revision < @revision")} ORDER BY f.span_id LIMIT @limit`, {
      project: projectId, revision: ruleset.revision, limit,
    });
    if (rows.length === 0) return { examined: 0, changed: 0 };
    // A re-coded outcome can move the call's SLO ending (declined or not): its calls are recounted
    // under their runs' locks, which ingest holds while it recounts the calls it writes.
    await lockToldRuns(tx, projectId, rows.map((r) => r.runId));
    const calls = rows.map((r) => ({ runId: r.runId, callId: r.callId }));
    const endingsBefore = await endingsOf(tx, projectId, calls);
    const aggregates = new BatchAggregates(projectId);
    const moves: CodeMove[] = [];
    for (const r of rows) {
      const current = currentFields(r);
      const { own, verdict } = reclassified(r, ruleset);
      const next: Classified = { code: verdict.code, errorClass: verdict.errorClass, retryable: verdict.retryable, outcome: verdict.outcome, retryAfterMs: verdict.retryAfterMs };
      if (fieldsDiffer(current, next)) {
        moves.push({ fromRevision: Number(r.revision), codes: [current.code, next.code] });
        const before: ClassifiedSpan = { ...r, ...current, startedAt: Number(r.startedAt), endedAt: Number(r.endedAt), attempt: r.attempt === null ? null : Number(r.attempt) };
        aggregates.moveClassification(before, { ...before, ...next });
        await tx.run(
          "UPDATE tool_call_spans SET code = ?, error_class = ?, retryable = ?, outcome = ?, retry_after_ms = ? WHERE project_id = ? AND span_id = ? AND started_at = ?",
          [next.code, next.errorClass, next.retryable === null ? null : next.retryable ? 1 : 0, next.outcome, next.retryAfterMs, projectId, r.spanId, r.startedAt],
        );
      }
      await tx.run("UPDATE failure_facts SET rule_id = ?, rule_version = ?, group_key = ?, prior = ?, revision = ? WHERE project_id = ? AND span_id = ?", [
        verdict.ruleId, verdict.ruleVersion, verdict.groupKey, verdict.ruleId === null ? null : JSON.stringify(own), ruleset.revision, projectId, r.spanId,
      ]);
    }
    if (moves.length > 0) {
      await moveEndings(tx, projectId, calls, endingsBefore, aggregates);
      await writeAggregates(tx, aggregates);
      for (const sql of PRUNE) await tx.run(sql, { project: projectId });
      await pruneRunCodes(tx, projectId, aggregates);
      await recordMovedCodes(tx, projectId, moves, ruleset.revision);
    }
    await resolveNamedGroupIssues(tx, projectId, rows, Date.now());
    return { examined: rows.length, changed: moves.length };
  });
}

/** How many stored failures of a project are classified at an older revision than `revision`. */
export async function countStaleFailures(store: Store, projectId: string, revision: number): Promise<number> {
  const r = await store.get<{ n: number }>("SELECT count(*) AS n FROM failure_facts WHERE project_id = ? AND revision < ?", [projectId, revision]);
  return Number(r?.n ?? 0);
}

/** Records the job's progress on a revision; `done` marks stored calls as brought to it. */
export async function recordReclassifyProgress(store: Store, projectId: string, revision: number, p: { examined: number; changed: number; total: number; done: boolean }, now: number) {
  await store.run(
    `UPDATE classification_state SET examined = ?, changed = ?, total = ?, applied_revision = CASE WHEN ? = 1 THEN ? ELSE applied_revision END, updated_at = ?
     WHERE project_id = ? AND revision = ?`,
    [p.examined, p.changed, p.total, p.done ? 1 : 0, revision, now, projectId, revision],
  );
}
