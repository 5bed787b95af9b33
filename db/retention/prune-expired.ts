import type { Store } from "../client";

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
const ROLLUP_TABLES = [
  "span_rollups_hourly",
  "span_rollups_6h",
  "delay_histograms_hourly",
  "delay_histograms_6h",
  "attempt_counts_hourly",
  "attempt_counts_6h",
  "error_rollups_hourly",
] as const;

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
      let victims = sqlite
        .prepare(
          `SELECT project_id AS projectId, run_id AS runId FROM run_stats
           WHERE first_started_at < @cutoff AND last_ended_at < @cutoff LIMIT ${RUNS_PER_CHUNK}`,
        )
        .all({ cutoff: policy.rawCutoffMs }) as { projectId: string; runId: string }[];
      if (victims.length === 0) {
        const { n } = sqlite.prepare("SELECT count(*) AS n FROM tool_call_spans").get() as { n: number };
        if (n > policy.maxSpans) {
          // Oldest first, only as many runs as it takes to get back under the cap.
          const oldest = sqlite
            .prepare(`SELECT project_id AS projectId, run_id AS runId, attempts FROM run_stats ORDER BY first_started_at LIMIT ${RUNS_PER_CHUNK}`)
            .all() as { projectId: string; runId: string; attempts: number }[];
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
  const projects = sqlite.prepare("SELECT id FROM projects").all() as { id: string }[];
  let deleted = 0;
  for (const table of ROLLUP_TABLES) {
    const st = sqlite.prepare(`DELETE FROM ${table} WHERE project_id = ? AND hour < ?`);
    for (const p of projects) deleted += st.run(p.id, policy.rollupCutoffMs).changes;
  }
  return deleted;
}
