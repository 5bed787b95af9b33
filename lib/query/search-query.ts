import { searchEndpoints } from "@/lib/api/read/search";
import { endpointQuery } from "./endpoint-query";

/** The search box's read: prefixes of run ids, tools, codes and releases of one project. */
export const searchQuery = (project: string, q: string) => ({ ...endpointQuery(searchEndpoints.search, { params: {}, search: { project, q } }), staleTime: 30_000 });
