import type { Experiment } from "@/lib/contracts/experiments";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";
import type { VariantCount } from "@/lib/experiments/stats";
import type { Executor } from "../store/types";

/**
 * The experiment's surfaced errors counted per variant, next step, run state and calls until
 * recovery: the stored tool errors that name the experiment (and its code, and tool when it has one)
 * joined to their told steps, which hold exactly the errors the model was told.
 */
export async function variantCounts(db: Executor, e: Pick<Experiment, "project" | "id" | "code" | "tool">): Promise<VariantCount[]> {
  const args: (string | number)[] = [e.project, e.id, e.code];
  let tool = "";
  if (e.tool !== null) {
    tool = " AND e.tool = ?";
    args.push(e.tool);
  }
  const rows = await db.all<{ variant: string; step: ToldStep; runState: ToldRunState; calls: number | string; errors: number | string }>(
    `SELECT e.variant AS variant, s.step AS step, s.run_state AS "runState", s.calls AS calls, count(*) AS errors
     FROM tool_errors e JOIN told_steps s ON s.project_id = e.project_id AND s.event_id = e.event_id
     WHERE e.project_id = ? AND e.experiment = ? AND e.code = ?${tool}
     GROUP BY e.variant, s.step, s.run_state, s.calls
     ORDER BY e.variant, s.step, s.run_state, s.calls`,
    args,
  );
  return rows.map((r) => ({ variant: r.variant, step: r.step, runState: r.runState, calls: Number(r.calls), errors: Number(r.errors) }));
}

/** Wordings of promoted winners and running experiments: the experiments that make up the project's wording set. */
export async function listWordingExperiments(db: Executor, projectId: string): Promise<Pick<Experiment, "id" | "code" | "tool" | "state" | "variants" | "winner" | "startedAt" | "stoppedAt">[]> {
  const rows = await db.all<{ id: string; code: string; tool: string | null; state: Experiment["state"]; variants: string; winner: string | null; started_at: number | string | null; stopped_at: number | string | null }>(
    `SELECT id, code, tool, state, variants, winner, started_at, stopped_at FROM experiments
     WHERE project_id = ? AND (state = 'running' OR (state = 'stopped_winner' AND winner IS NOT NULL))
     ORDER BY id`,
    [projectId],
  );
  return rows.map((r) => ({
    id: r.id, code: r.code, tool: r.tool, state: r.state, variants: JSON.parse(r.variants) as Experiment["variants"], winner: r.winner,
    startedAt: r.started_at === null ? null : Number(r.started_at), stoppedAt: r.stopped_at === null ? null : Number(r.stopped_at),
  }));
}
