import { getTableColumns, getTableName } from "drizzle-orm";
import type { Executor, Store } from "../store/types";
import { jsonRows } from "../store/dialect-sql";
import { ROLLUP_LIST } from "../rollups/registry";

export interface RetentionPolicy {
  /** Runs whose last activity is older than this are deleted with all their rows. */
  rawCutoffMs: number;
  /** Over this many stored spans, the oldest runs go first, whatever their age. */
  maxSpans: number;
  /** Rollup periods older than this are deleted. */
  rollupCutoffMs: number;
}

export interface PruneResult {
  runs: number;
  spans: number;
  toolErrors: number;
}

const RUNS_PER_CHUNK = 200;
/** Every periodic rollup table with the SQL name of its period column. */
const PERIODIC_TABLES = ROLLUP_LIST.flatMap((r) => {
  const period = r.period;
  if (period === undefined) return [];
  return r.tableList.map(({ table }) => ({ name: getTableName(table), period: getTableColumns(table)[period]?.name ?? period }));
});

type RunRef = { projectId: string; runId: string };

/** The runs one chunk deletes: expired ones, else (over the span cap) the oldest until back under it. */
async function pickVictims(tx: Executor, policy: RetentionPolicy): Promise<RunRef[]> {
  const victims = await tx.all<RunRef>(
    `SELECT project_id AS "projectId", run_id AS "runId" FROM run_stats
     WHERE first_started_at < @cutoff AND last_ended_at < @cutoff ORDER BY project_id, run_id LIMIT ${RUNS_PER_CHUNK}`,
    { cutoff: policy.rawCutoffMs },
  );
  if (victims.length > 0) return victims;
  const n = (await tx.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans"))?.n ?? 0;
  if (n <= policy.maxSpans) return victims;
  // Oldest first, only as many runs as it takes to get back under the cap.
  const oldest = await tx.all<RunRef & { attempts: number }>(
    `SELECT project_id AS "projectId", run_id AS "runId", attempts FROM run_stats ORDER BY first_started_at, project_id, run_id LIMIT ${RUNS_PER_CHUNK}`,
  );
  let excess = n - policy.maxSpans;
  for (const run of oldest) {
    if (excess <= 0) break;
    victims.push(run);
    excess -= run.attempts;
  }
  return victims;
}

/**
 * Deletes one chunk of expired runs — whole runs, never half of one: their spans, final errors, run
 * record, counters, tool and code indexes and told steps — in one transaction. A run expires when its last activity is
 * older than the cutoff, or, while more than `maxSpans` spans are stored, when it is among the
 * oldest. Rollups, the codes catalogue and drift accumulators keep the history. Call until it
 * returns zero runs. (On PostgreSQL whole days of spans and errors go first, by dropping their
 * partitions; this then removes the rest of those runs and what the cap asks.)
 */
export async function pruneExpiredRuns(store: Store, policy: RetentionPolicy): Promise<PruneResult> {
  // The callback may run again after a deadlock with ingest on PostgreSQL: it only reads and deletes.
  return store.transaction(async (tx): Promise<PruneResult> => {
    const victims = await pickVictims(tx, policy);
    if (victims.length === 0) return { runs: 0, spans: 0, toolErrors: 0 };
    // One statement per table for the whole chunk, the runs passed as one JSON parameter.
    const params = { runs: JSON.stringify(victims.map((v) => [v.projectId, v.runId])) };
    const runs = `(SELECT value ->> 0, value ->> 1 FROM ${jsonRows(tx.dialect, "@runs")})`;
    const del = (table: string) => tx.run(`DELETE FROM ${table} WHERE (project_id, run_id) IN ${runs}`, params);
    const spans = await del("tool_call_spans");
    const toolErrors = await del("tool_errors");
    // A run's told steps go with it; the told counts, like the other rollups, keep the history.
    for (const table of ["runs", "run_stats", "run_tools", "run_codes", "told_steps", "failure_facts", "error_facts"]) await del(table);
    return { runs: victims.length, spans, toolErrors };
  });
}

/** Deletes rollup periods older than the rollup cutoff, project by project (primary-key range deletes). */
export async function pruneRollups(store: Store, policy: RetentionPolicy): Promise<number> {
  const projects = await store.all<{ id: string }>("SELECT id FROM projects ORDER BY id");
  let deleted = 0;
  for (const table of PERIODIC_TABLES) {
    for (const p of projects) {
      deleted += await store.run(`DELETE FROM ${table.name} WHERE project_id = @project AND ${table.period} < @cutoff`, { project: p.id, cutoff: policy.rollupCutoffMs });
    }
  }
  return deleted;
}
