import { runTimelineQuerySchema, runTimelineSchema } from "@/lib/contracts/run-timeline";
import { defineEndpoint } from "../endpoint";

/** One run's timeline: the whole run in one answer. */
export const runTimelineEndpoints = {
  runTimeline: defineEndpoint<typeof runTimelineQuerySchema, typeof runTimelineSchema, "runId">({
    id: "run-timeline",
    path: "/api/v1/runs/:runId",
    query: runTimelineQuerySchema,
    response: runTimelineSchema,
  }),
} as const;
