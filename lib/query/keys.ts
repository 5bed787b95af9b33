import { dashboardEndpoints } from "@/lib/api/read/dashboard";
import { endpointQuery } from "./endpoint-query";
import type { DashboardSearch } from "./search";

export { projectsQuery } from "./projects-query";

// The dashboard reads, each from its endpoint descriptor; a page's search is narrowed to the keys
// each endpoint reads, so e.g. the tools sort does not refetch the overview. The project list, Tools
// and Codes reads have their own modules: each page's script carries only its own contracts.
const noParams = {} as const;

export const overviewQuery = (s: DashboardSearch) => endpointQuery(dashboardEndpoints.overview, { params: noParams, search: s });

export const setupQuery = (project: string) => endpointQuery(dashboardEndpoints.setup, { params: noParams, search: { project } });
