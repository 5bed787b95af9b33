import { toolDetailQuerySchema, toolDetailSchema } from "@/lib/contracts/tool-detail";
import { defineEndpoint } from "../endpoint";

/** One tool's page. */
export const toolDetailEndpoints = {
  // The tool travels in the query string: its name may hold any character, '/' too.
  toolDetail: defineEndpoint({ id: "tool-detail", path: "/api/v1/tools/detail", query: toolDetailQuerySchema, response: toolDetailSchema }),
} as const;
