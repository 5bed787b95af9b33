import { textSearchQuerySchema, textSearchSchema } from "@/lib/contracts/text-search";
import { defineEndpoint } from "../endpoint";

/** Full-text search over error messages and told texts (docs/search.md). */
export const textSearchEndpoints = {
  textSearch: defineEndpoint({ id: "text-search", path: "/api/v1/search/text", query: textSearchQuerySchema, response: textSearchSchema }),
} as const;
