import { toolsEndpoints } from "@/lib/api/read/tools";
import { endpointQuery } from "./endpoint-query";
import type { DashboardSearch } from "./search";

/** The Tools page's read (and the filter bar's facets). */
export const toolsQuery = (s: DashboardSearch) => endpointQuery(toolsEndpoints.tools, { params: {}, search: s });

