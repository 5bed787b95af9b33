import { listRunsQuerySchema, runFacetsQuerySchema, runFacetsSchema, runListResponseSchema } from "@/lib/contracts/runs";
import { defineEndpoint } from "../endpoint";

/** The runs list and its filter suggestions (one run's timeline is in `./run-timeline`). */
export const runsEndpoints = {
  runs: defineEndpoint({ id: "runs", path: "/api/v1/runs", query: listRunsQuerySchema, response: runListResponseSchema }),
  // Not under /runs/: a run may be called "facets".
  runFacets: defineEndpoint({ id: "run-facets", path: "/api/v1/run-facets", query: runFacetsQuerySchema, response: runFacetsSchema }),
} as const;
