import { searchQuerySchema, searchSchema } from "@/lib/contracts/search";
import { textSearchQuerySchema, textSearchSchema } from "@/lib/contracts/text-search";
import { defineEndpoint } from "../endpoint";

/** The search box, and full-text search over error messages and told texts (docs/search.md). */
export const searchEndpoints = {
  search: defineEndpoint({ id: "search", path: "/api/v1/search", query: searchQuerySchema, response: searchSchema }),
  textSearch: defineEndpoint({ id: "text-search", path: "/api/v1/search/text", query: textSearchQuerySchema, response: textSearchSchema }),
} as const;
