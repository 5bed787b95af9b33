import type { Executor } from "../store/types";

/**
 * Up to three runs, newest first, where the model was told `code` from `tool` in `release` and then
 * recovered (`recovered` true) or did not (a decided step other than a recovery): the example runs
 * of a model behaviour finding's two sides.
 */
export async function toldExampleRuns(db: Executor, projectId: string, q: { tool: string; code: string; release: string; recovered: boolean }): Promise<string[]> {
  const steps = q.recovered ? "step IN ('recovered', 'replaced')" : "step NOT IN ('recovered', 'replaced', 'pending')";
  const rows = await db.all<{ run_id: string }>(
    `SELECT run_id, max(occurred_at) AS at FROM told_steps
     WHERE project_id = @project AND code = @code AND tool = @tool AND release = @release AND ${steps}
     GROUP BY run_id ORDER BY at DESC, run_id LIMIT 3`,
    { project: projectId, code: q.code, tool: q.tool, release: q.release },
  );
  return rows.map((r) => r.run_id);
}
