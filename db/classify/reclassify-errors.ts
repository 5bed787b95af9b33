import { getTableName } from "drizzle-orm";
import type { Ruleset } from "@/lib/classify/classify";
import { callKey, classifyError, errorOwn, type CallAttemptVerdict } from "@/lib/classify/classify-errors";
import type { ErrorClassified, ToolErrorRow } from "@/lib/ingest/rows";
import { BatchAggregates } from "../ingest/aggregate";
import { lockToldRuns, replanToldRuns } from "../ingest/told-steps";
import { moveEndings } from "../ingest/call-endings";
import { codeCatalogue } from "../schema/codes";
import { errorRollups } from "../schema/error-rollups";
import { jsonRows } from "../store/dialect-sql";
import type { Store, Tx } from "../store/types";
import type { ReclassifyChunk } from "./reclassify";
import { writeAggregates } from "./write-aggregates";
import { recordMovedCodes, type CodeMove } from "./config-events";
import { pruneRunCodes } from "./prune-run-codes";

interface StoredError {
  eventId: string;
  runId: string;
  callId: string;
  tool: string;
  toolVersion: string | null;
  release: string | null;
  service: string | null;
  environment: string | null;
  code: string | null;
  errorClass: string | null;
  retryable: number | null;
  attempts: number | null;
  decision: string | null;
  told: string | null;
  occurredAt: number;
  source: string;
  experiment: string | null;
  variant: string | null;
  prior: string | null;
  revision: number;
}

interface StoredAttempt {
  runId: string;
  callId: string;
  tool: string;
  code: string | null;
  errorClass: string | null;
  retryable: number | null;
  startedAt: number;
  endedAt: number;
  ruleId: string | null;
  ruleVersion: number | null;
  prior: string | null;
}

// Counters a move can leave at zero; a recount would have no such row.
const PRUNE_ERRORS = [
  ...errorRollups.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = @project AND errors = 0`),
  ...codeCatalogue.tableList.map(({ table }) => `DELETE FROM ${getTableName(table)} WHERE project_id = @project AND spans = 0 AND errors = 0`),
];
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Number(v) === 1);

const toRow = (r: StoredError): ToolErrorRow => ({
  eventId: r.eventId, runId: r.runId, callId: r.callId, tool: r.tool, toolVersion: r.toolVersion, release: r.release, service: r.service,
  environment: r.environment, code: r.code, errorClass: r.errorClass, retryable: bool(r.retryable), attempts: r.attempts === null ? null : Number(r.attempts),
  decision: r.decision, told: r.told, derived: null, occurredAt: Number(r.occurredAt), source: r.source,
  experiment: r.experiment, variant: r.variant,
  ...(r.prior === null ? {} : { classification: { ruleId: null, ruleVersion: null, prior: JSON.parse(r.prior) as ErrorClassified, revision: 0 } }),
});

/** The last failed attempt of each of the chunk's calls, as the spans' classification now stands. */
async function lastAttempts(tx: Tx, projectId: string, errors: readonly StoredError[]): Promise<Map<string, CallAttemptVerdict>> {
  const calls = [...new Map(errors.map((e) => [`${e.runId}\u0000${e.callId}`, [e.runId, e.callId]])).values()];
  const rows = await tx.all<StoredAttempt>(
    `SELECT s.run_id AS "runId", s.call_id AS "callId", s.tool, s.code, s.error_class AS "errorClass", s.retryable, s.started_at AS "startedAt",
       s.ended_at AS "endedAt", f.rule_id AS "ruleId", f.rule_version AS "ruleVersion", f.prior
     FROM failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at
     WHERE f.project_id = @project AND (f.run_id, s.call_id) IN (SELECT value ->> 0, value ->> 1 FROM ${jsonRows(tx.dialect, "@calls")})
     ORDER BY s.started_at, s.ended_at, s.span_id`,
    { project: projectId, calls: JSON.stringify(calls) },
  );
  const out = new Map<string, CallAttemptVerdict>();
  // Ordered by start then end: the last row of a call is its last failed attempt.
  for (const a of rows) {
    const own = a.prior === null ? a.code : (JSON.parse(a.prior) as { code: string | null }).code;
    out.set(callKey(a.runId, a.callId, a.tool), {
      ownCode: own, ruleId: a.ruleId, ruleVersion: a.ruleVersion === null ? null : Number(a.ruleVersion), code: a.code, errorClass: a.errorClass, retryable: bool(a.retryable),
    });
  }
  return out;
}

/**
 * Re-classifies up to `limit` stored final errors of a project classified at an older revision than
 * the ruleset's, in one transaction, after the spans (db/classify/reclassify.ts): each follows its
 * call's last failed attempt as re-classified, else the rules on its told text, from its emitter's
 * own fields; its row and facts are updated and its error rollup and codes catalogue counters move.
 * The told steps of the chunk's runs are then classified again from the rows as they now stand
 * (code, shape, next code), their `told_step_counts` moving with them (`now` stamps the rows).
 */
export async function reclassifyErrorChunk(store: Store, projectId: string, ruleset: Ruleset, options: { limit?: number; now: number }): Promise<ReclassifyChunk> {
  const { limit = 500, now } = options;
  return store.transaction(async (tx) => {
    const rows = await tx.all<StoredError>(
      `SELECT f.event_id AS "eventId", e.run_id AS "runId", e.call_id AS "callId", e.tool, e.tool_version AS "toolVersion", e.release, e.service,
         e.environment, e.code, e.error_class AS "errorClass", e.retryable, e.attempts, e.decision, e.told, e.occurred_at AS "occurredAt", e.source, e.experiment, e.variant, f.prior, f.revision
       FROM error_facts f JOIN tool_errors e ON e.project_id = f.project_id AND e.event_id = f.event_id AND e.occurred_at = f.occurred_at
       WHERE f.project_id = @project AND f.revision < @revision ORDER BY f.event_id LIMIT @limit`,
      { project: projectId, revision: ruleset.revision, limit },
    );
    if (rows.length === 0) return { examined: 0, changed: 0 };
    // Runs whose told steps may move: re-coded spans change a step's next code, re-coded errors its
    // own. Locked before any row is re-coded, as ingest locks them before it reads.
    const toldRuns = rows.filter((r) => r.told !== null).map((r) => r.runId);
    await lockToldRuns(tx, projectId, toldRuns);
    const attempts = await lastAttempts(tx, projectId, rows);
    const aggregates = new BatchAggregates(projectId);
    const moves: CodeMove[] = [];
    for (const r of rows) {
      const before = toRow(r);
      const own = errorOwn(before);
      const v = classifyError(before, own, attempts.get(callKey(r.runId, r.callId, r.tool)) ?? null, ruleset);
      if (v.code !== before.code || v.errorClass !== before.errorClass || v.retryable !== before.retryable) {
        moves.push({ fromRevision: Number(r.revision), codes: [before.code, v.code] });
        aggregates.moveErrorClassification(before, { ...before, code: v.code, errorClass: v.errorClass, retryable: v.retryable });
        await tx.run("UPDATE tool_errors SET code = ?, error_class = ?, retryable = ? WHERE project_id = ? AND event_id = ? AND occurred_at = ?", [
          v.code, v.errorClass, v.retryable === null ? null : v.retryable ? 1 : 0, projectId, r.eventId, r.occurredAt,
        ]);
      }
      await tx.run("UPDATE error_facts SET rule_id = ?, rule_version = ?, prior = ?, revision = ? WHERE project_id = ? AND event_id = ?", [
        v.ruleId, v.ruleVersion, v.ruleId === null ? null : JSON.stringify(own), ruleset.revision, projectId, r.eventId,
      ]);
    }
    const toldChanged = await replanToldRuns(tx, projectId, toldRuns, aggregates, now);
    if (moves.length > 0 || toldChanged > 0) {
      // Spans are not re-coded here: only calls whose recovery the told steps changed move their SLO endings.
      await moveEndings(tx, projectId, [], [], aggregates);
      await writeAggregates(tx, aggregates);
      for (const sql of PRUNE_ERRORS) await tx.run(sql, { project: projectId });
      await pruneRunCodes(tx, projectId, aggregates);
    }
    await recordMovedCodes(tx, projectId, moves, ruleset.revision);
    return { examined: rows.length, changed: moves.length };
  });
}

/** How many stored final errors of a project are classified at an older revision than `revision`. */
export async function countStaleErrors(store: Store, projectId: string, revision: number): Promise<number> {
  const r = await store.get<{ n: number }>("SELECT count(*) AS n FROM error_facts WHERE project_id = ? AND revision < ?", [projectId, revision]);
  return Number(r?.n ?? 0);
}
