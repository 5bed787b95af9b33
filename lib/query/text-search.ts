import { textSearchEndpoints } from "@/lib/api/read/text-search";
import type { TextField } from "@/lib/contracts/text-search";
import { endpointQuery } from "./endpoint-query";

/** The search page's read: calls whose error message or told text matches `q`. */
export const textSearchOptions = (project: string, q: string, field?: TextField | "") =>
  endpointQuery(textSearchEndpoints.textSearch, { params: {}, search: { project, q, field: field || undefined } });
