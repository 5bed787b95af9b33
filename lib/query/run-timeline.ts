import { runTimelineEndpoints } from "@/lib/api/read/run-timeline";
import { endpointQuery } from "./endpoint-query";

/** One run's timeline. */
export const runTimelineOptions = (project: string, runId: string) => ({
  ...endpointQuery(runTimelineEndpoints.runTimeline, { params: { runId }, search: { project } }),
  // A finished run does not change; re-reading 12,000 attempts on every focus would be waste.
  staleTime: 60_000,
});
