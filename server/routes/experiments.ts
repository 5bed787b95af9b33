import { getExperiment, insertExperiment, listExperiments, runningExperimentOn, setExperimentState, type ExperimentStateChange } from "@/db/experiments/experiment-rows";
import { variantCounts } from "@/db/experiments/variant-counts";
import type { Executor } from "@/db/client";
import { endpoints } from "@/lib/api/endpoints";
import { experimentCreateSchema, experimentIdSchema, experimentTransitionSchema, type Experiment, type ExperimentTransition } from "@/lib/contracts/experiments";
import { experimentDetail } from "@/lib/experiments/detail";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/experiments`: the project's wording experiments, newest first. */
export const experimentsRoute = defineRoute(endpoints.experiments, async ({ params }) => ({ experiments: await listExperiments(await getStore(), params.project) }));

async function detailOf(db: Executor, project: string, id: string) {
  const experiment = await getExperiment(db, project, id);
  if (!experiment) throw new ApiError("not_found", `no experiment ${id} in project ${project}`);
  return experimentDetail(experiment, await variantCounts(db, experiment));
}

/** `GET /api/v1/projects/:project/experiments/:id`: one experiment, its per-variant results counted from the stored records, and the verdict. */
export const experimentDetailRoute = defineRoute(endpoints.experimentDetail, async ({ params }) => detailOf(await getStore(), params.project, params.id), {
  params: { id: experimentIdSchema },
});

/** `POST /api/v1/projects/:project/experiments` (admin): a draft experiment; nothing is told differently until it starts. */
export const experimentCreate = defineMutation({
  params: ["project"],
  body: experimentCreateSchema,
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project }, body, now }) => {
    if (!(await insertExperiment(tx, project, body, now))) throw new ApiError("conflict", `project ${project} already has an experiment ${body.id}`);
    const created = await detailOf(tx, project, body.id);
    return {
      result: created,
      audit: { projectId: project, action: "experiment.created", target: body.id, detail: { code: body.code, tool: body.tool, variants: body.variants.map((v) => `${v.id}:${v.weight}`) } },
    };
  },
  status: 201,
});

/** The state change a transition makes, or the refusal. */
async function transitionOf(tx: Executor, e: Experiment, t: ExperimentTransition, now: number): Promise<{ from: Experiment["state"]; change: ExperimentStateChange }> {
  switch (t.action) {
    case "start": {
      if (e.state !== "draft") throw new ApiError("conflict", `experiment ${e.id} is ${e.state}: only a draft starts`);
      const other = await runningExperimentOn(tx, e.project, e.code, e.tool);
      if (other) throw new ApiError("conflict", `experiment ${other} already runs on ${e.code}${e.tool ? ` of ${e.tool}` : ""}: stop it first`);
      return { from: "draft", change: { state: "running", startedAt: now } };
    }
    case "stop":
      if (e.state !== "running") throw new ApiError("conflict", `experiment ${e.id} is ${e.state}: only a running experiment stops`);
      return { from: "running", change: { state: "stopped_inconclusive", stoppedAt: now, stopReason: "stopped by an admin" } };
    case "promote":
      if (e.state !== "running" && e.state !== "stopped_inconclusive") throw new ApiError("conflict", `experiment ${e.id} is ${e.state}: only a running or stopped experiment promotes a wording`);
      if (!e.variants.some((v) => v.id === t.variant)) throw new ApiError("bad_request", `experiment ${e.id} has no variant ${t.variant}`, [{ path: "variant", message: "not a variant of this experiment" }]);
      return { from: e.state, change: { state: "stopped_winner", winner: t.variant, stoppedAt: now, stopReason: `${t.variant} promoted` } };
  }
}

const AUDIT_ACTION = { start: "experiment.started", stop: "experiment.stopped", promote: "experiment.promoted" } as const;

/**
 * `PATCH /api/v1/projects/:project/experiments/:id` (admin): start a draft, stop a running
 * experiment, or promote a variant (its wording is then told to every run of the project through
 * the wording set, without a deploy).
 */
export const experimentPatch = defineMutation({
  params: ["project", "id"],
  body: experimentTransitionSchema,
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project, id }, body, now }) => {
    const experiment = await getExperiment(tx, project, id);
    if (!experiment) throw new ApiError("not_found", `no experiment ${id} in project ${project}`);
    const { from, change } = await transitionOf(tx, experiment, body, now);
    if (!(await setExperimentState(tx, project, id, from, change, now))) throw new ApiError("conflict", `experiment ${id} changed meanwhile: reload it`);
    return {
      result: await detailOf(tx, project, id),
      audit: { projectId: project, action: AUDIT_ACTION[body.action], target: id, detail: { from, to: change.state, ...(body.action === "promote" ? { variant: body.variant } : {}) } },
    };
  },
});
