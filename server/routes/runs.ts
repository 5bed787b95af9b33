import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { listRunFacets, listRuns } from "@/db/queries/list-runs";
import { endpoints } from "@/lib/api/endpoints";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const runsRoute = defineRoute(endpoints.runs, ({ query }) => listRuns(getStore(), query));

export const runFacetsRoute = defineRoute(endpoints.runFacets, ({ query }) => listRunFacets(getStore(), query.project));

export const runTimelineRoute = defineRoute(endpoints.runTimeline, ({ query, params }) => {
  const timeline = getRunTimeline(getStore(), query.project, params.runId);
  if (!timeline) throw new ApiError("not_found", "no run with this id in this project");
  return timeline;
});
