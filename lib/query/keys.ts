import { dashboardEndpoints } from "@/lib/api/read/dashboard";
import { endpointQuery } from "./endpoint-query";
import type { DashboardSearch } from "./search";

// The dashboard reads, each from its endpoint descriptor; a page's search is narrowed to the keys
// each endpoint reads, so e.g. the tools sort does not refetch the overview.
const noParams = {} as const;

export const overviewQuery = (s: DashboardSearch) => endpointQuery(dashboardEndpoints.overview, { params: noParams, search: s });

export const toolsQuery = (s: DashboardSearch) => endpointQuery(dashboardEndpoints.tools, { params: noParams, search: s });

export const toolDetailQuery = (tool: string, s: DashboardSearch) => endpointQuery(dashboardEndpoints.toolDetail, { params: noParams, search: { ...s, tool } });

export const codesQuery = (s: DashboardSearch) => endpointQuery(dashboardEndpoints.codes, { params: noParams, search: s });

export const codeDetailQuery = (code: string, s: DashboardSearch) => endpointQuery(dashboardEndpoints.codeDetail, { params: noParams, search: { ...s, code } });

export const projectsQuery = () => ({ ...endpointQuery(dashboardEndpoints.projects, { params: noParams, search: {} }), staleTime: 300_000 });

export const setupQuery = (project: string) => endpointQuery(dashboardEndpoints.setup, { params: noParams, search: { project } });
