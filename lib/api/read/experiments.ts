import { experimentDetailSchema, experimentsAnswerSchema } from "@/lib/contracts/experiments";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

const noQuery = z.object({});

/** Wording experiments (docs/experiments.md); the runtime's wording set is a read-key route of its own (/api/v1/wordings). */
export const experimentsEndpoints = {
  experiments: defineEndpoint<typeof noQuery, typeof experimentsAnswerSchema, "project">({
    id: "experiments",
    path: "/api/v1/projects/:project/experiments",
    query: noQuery,
    response: experimentsAnswerSchema,
  }),
  experimentDetail: defineEndpoint<typeof noQuery, typeof experimentDetailSchema, "project" | "id">({
    id: "experiment-detail",
    path: "/api/v1/projects/:project/experiments/:id",
    query: noQuery,
    response: experimentDetailSchema,
  }),
} as const;
