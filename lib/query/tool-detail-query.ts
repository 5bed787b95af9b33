import { toolDetailEndpoints } from "@/lib/api/read/tool-detail";
import { endpointQuery } from "./endpoint-query";
import type { DashboardSearch } from "./search";

/** One tool's page. */
export const toolDetailQuery = (tool: string, s: DashboardSearch) => endpointQuery(toolDetailEndpoints.toolDetail, { params: {}, search: { ...s, tool } });
