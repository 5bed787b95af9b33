import { searchEndpoints } from "@/lib/api/read/search";
import type { TextField } from "@/lib/contracts/text-search";
import { endpointQuery } from "./endpoint-query";

/** The search page's read: calls whose error message or told text matches `q`. */
export const textSearchOptions = (project: string, q: string, field?: TextField | "") =>
  endpointQuery(searchEndpoints.textSearch, { params: {}, search: { project, q, field: field || undefined } });

/** The search page's address for a query (the header box's "search the texts" entry). */
export function textSearchHref(project: string, q: string): string {
  const params = new URLSearchParams();
  if (project !== "default") params.set("project", project);
  params.set("q", q);
  return `/search?${params.toString()}`;
}
