import { searchQuerySchema, searchSchema } from "@/lib/contracts/search";
import { defineEndpoint } from "../endpoint";

/** The search box (in every page's header: full-text search, its own group in `./text-search`, stays out of it). */
export const searchEndpoints = {
  search: defineEndpoint({ id: "search", path: "/api/v1/search", query: searchQuerySchema, response: searchSchema }),
} as const;
