import { searchEndpoints } from "@/lib/api/read/search";
import { endpointQuery } from "./endpoint-query";

/** The search box's read: prefixes of run ids, tools, codes and releases of one project. */
export const searchQuery = (project: string, q: string) => ({ ...endpointQuery(searchEndpoints.search, { params: {}, search: { project, q } }), staleTime: 30_000 });

/** The search page's address for a query (the header box's "search the texts" entry). */
export function textSearchHref(project: string, q: string): string {
  const params = new URLSearchParams();
  if (project !== "default") params.set("project", project);
  params.set("q", q);
  return `/search?${params.toString()}`;
}
