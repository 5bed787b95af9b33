import { listRunsQuerySchema, runFacetsQuerySchema, runFacetsSchema, runListResponseSchema, runTimelineQuerySchema, runTimelineSchema } from "@/lib/contracts/runs";
import { defineEndpoint } from "../endpoint";

/** The runs list, its filter suggestions and one run's timeline. */
export const runsEndpoints = {
  runs: defineEndpoint({ id: "runs", path: "/api/v1/runs", query: listRunsQuerySchema, response: runListResponseSchema }),
  // Not under /runs/: a run may be called "facets".
  runFacets: defineEndpoint({ id: "run-facets", path: "/api/v1/run-facets", query: runFacetsQuerySchema, response: runFacetsSchema }),
  runTimeline: defineEndpoint<typeof runTimelineQuerySchema, typeof runTimelineSchema, "runId">({
    id: "run-timeline",
    path: "/api/v1/runs/:runId",
    query: runTimelineQuerySchema,
    response: runTimelineSchema,
  }),
} as const;
