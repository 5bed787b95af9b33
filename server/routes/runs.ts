import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { listRunFacets, listRuns } from "@/db/queries/list-runs";
import { endpoints } from "@/lib/api/endpoints";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const runsRoute = defineRoute(endpoints.runs, async ({ query }) => listRuns(await getStore(), query));

export const runFacetsRoute = defineRoute(endpoints.runFacets, async ({ query }) => listRunFacets(await getStore(), query.project));

export const runTimelineRoute = defineRoute(endpoints.runTimeline, async ({ query, params }) => {
  const timeline = await getRunTimeline(await getStore(), query.project, params.runId, { limit: query.limit, after: query.after });
  if (!timeline) throw new ApiError("not_found", "no run with this id in this project");
  return timeline;
});
