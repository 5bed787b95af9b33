import { traceLinkAnswerSchema } from "@/lib/contracts/trace-links";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

const noQuery = z.object({});

/** The project's link to its tracing tool (docs/trace-links.md): every member reads it, to render "Open in …". */
export const traceLinkEndpoints = {
  traceLink: defineEndpoint<typeof noQuery, typeof traceLinkAnswerSchema, "project">({
    id: "trace-link",
    path: "/api/v1/projects/:project/trace-link",
    query: noQuery,
    response: traceLinkAnswerSchema,
  }),
} as const;
