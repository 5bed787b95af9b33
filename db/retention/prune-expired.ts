import { getTableColumns, getTableName } from "drizzle-orm";
import type { Store } from "../client";
import { ROLLUPS } from "../rollups/registry";

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
const PERIODIC_TABLES = ROLLUPS.flatMap((r) => {
  const period = r.period;
  if (period === undefined) return [];
  return r.tableList.map(({ table }) => ({ name: getTableName(table), period: getTableColumns(table)[period]?.name ?? period }));
});

type RunRef = { projectId: string; runId: string };

/**
 * Deletes one chunk of expired runs — whole runs, never half of one: their spans, final errors, run
 * record, counters and tool index — in one transaction. A run expires when its last activity is
 * older than the cutoff, or, while more than `maxSpans` spans are stored, when it is among the
 * oldest. Rollups, the codes catalogue and drift accumulators keep the history. Call until it
 * returns zero runs.
 */
export function pruneExpiredRuns(store: Store, policy: RetentionPolicy): PruneResult {
  const { sqlite } = store;
  return sqlite
    .transaction((): PruneResult => {
      const victims = sqlite
        .prepare<{ cutoff: number }, RunRef>(
          `SELECT project_id AS projectId, run_id AS runId FROM run_stats
           WHERE first_started_at < @cutoff AND last_ended_at < @cutoff LIMIT ${RUNS_PER_CHUNK}`,
        )
        .all({ cutoff: policy.rawCutoffMs });
      if (victims.length === 0) {
        const n = sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM tool_call_spans").get()?.n ?? 0;
        if (n > policy.maxSpans) {
          // Oldest first, only as many runs as it takes to get back under the cap.
          const oldest = sqlite
            .prepare<[], RunRef & { attempts: number }>(
              `SELECT project_id AS projectId, run_id AS runId, attempts FROM run_stats ORDER BY first_started_at LIMIT ${RUNS_PER_CHUNK}`,
            )
            .all();
          let excess = n - policy.maxSpans;
          for (const run of oldest) {
            if (excess <= 0) break;
            victims.push(run);
            excess -= run.attempts;
          }
        }
      }
      const result: PruneResult = { runs: 0, spans: 0, toolErrors: 0 };
      const del = (table: string) => sqlite.prepare(`DELETE FROM ${table} WHERE project_id = ? AND run_id = ?`);
      const spans = del("tool_call_spans");
      const errors = del("tool_errors");
      const others = ["runs", "run_stats", "run_tools"].map(del);
      for (const v of victims) {
        result.spans += spans.run(v.projectId, v.runId).changes;
        result.toolErrors += errors.run(v.projectId, v.runId).changes;
        for (const st of others) st.run(v.projectId, v.runId);
        result.runs++;
      }
      return result;
    })
    .immediate();
}

/** Deletes rollup periods older than the rollup cutoff, project by project (primary-key range deletes). */
export function pruneRollups(store: Store, policy: RetentionPolicy): number {
  const { sqlite } = store;
  const projects = sqlite.prepare<[], { id: string }>("SELECT id FROM projects").all();
  let deleted = 0;
  for (const table of PERIODIC_TABLES) {
    const st = sqlite.prepare(`DELETE FROM ${table.name} WHERE project_id = ? AND ${table.period} < ?`);
    for (const p of projects) deleted += st.run(p.id, policy.rollupCutoffMs).changes;
  }
  return deleted;
}
