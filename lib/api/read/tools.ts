import { toolDetailQuerySchema, toolDetailSchema, toolsQuerySchema, toolsSchema } from "@/lib/contracts/tools";
import { defineEndpoint } from "../endpoint";

/** The Tools page and one tool's page. */
export const toolsEndpoints = {
  tools: defineEndpoint({ id: "tools", path: "/api/v1/tools", query: toolsQuerySchema, response: toolsSchema }),
  // The tool travels in the query string: its name may hold any character, '/' too.
  toolDetail: defineEndpoint({ id: "tool-detail", path: "/api/v1/tools/detail", query: toolDetailQuerySchema, response: toolDetailSchema }),
} as const;
