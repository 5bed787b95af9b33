import { savedViewsQuerySchema, savedViewsSchema } from "@/lib/contracts/saved-views";
import { defineEndpoint } from "../endpoint";

/** The caller's saved views of one page and those shared with the project (docs/saved-views.md). */
export const savedViewsEndpoints = {
  savedViews: defineEndpoint({ id: "saved-views", path: "/api/v1/saved-views", query: savedViewsQuerySchema, response: savedViewsSchema }),
} as const;
