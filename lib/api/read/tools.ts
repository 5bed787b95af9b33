import { toolsQuerySchema, toolsSchema } from "@/lib/contracts/tools";
import { defineEndpoint } from "../endpoint";

/** The Tools page (and every filter bar's facets). */
export const toolsEndpoints = {
  tools: defineEndpoint({ id: "tools", path: "/api/v1/tools", query: toolsQuerySchema, response: toolsSchema }),
} as const;
