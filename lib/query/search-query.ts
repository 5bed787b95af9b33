import { endpoints } from "@/lib/api/endpoints";
import { endpointQuery } from "./endpoint-query";

/** The search box's read: prefixes of run ids, tools, codes and releases of one project. */
export const searchQuery = (project: string, q: string) => ({ ...endpointQuery(endpoints.search, { params: {}, search: { project, q } }), staleTime: 30_000 });
