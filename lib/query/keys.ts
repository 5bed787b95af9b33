import { queryOptions } from "@tanstack/react-query";
import { codeHistorySchema, codesSchema } from "@/lib/contracts/codes";
import { overviewSchema } from "@/lib/contracts/overview";
import { projectsSchema, setupSchema } from "@/lib/contracts/projects";
import { toolDetailSchema, toolsSchema } from "@/lib/contracts/tools";
import { fetchJson } from "./fetch-json";
import { FILTER_SEARCH_KEYS, pick, toQueryString, type DashboardSearch } from "./search";

/** Query keys of the dashboard reads; every key ends in the normalised search it was made from. */
export const dashboardKeys = {
  all: ["dashboard"] as const,
  overview: (s: DashboardSearch) => [...dashboardKeys.all, "overview", pick(s, FILTER_SEARCH_KEYS)] as const,
  tools: (s: DashboardSearch) => [...dashboardKeys.all, "tools", pick(s, [...FILTER_SEARCH_KEYS, "sort", "dir"])] as const,
  toolDetail: (tool: string, s: DashboardSearch) => [...dashboardKeys.all, "tool", tool, pick(s, FILTER_SEARCH_KEYS)] as const,
  codes: (s: DashboardSearch) => [...dashboardKeys.all, "codes", pick(s, [...FILTER_SEARCH_KEYS, "sort", "dir"])] as const,
  codeHistory: (code: string, s: DashboardSearch) => [...dashboardKeys.all, "code", code, pick(s, FILTER_SEARCH_KEYS)] as const,
  projects: () => [...dashboardKeys.all, "projects"] as const,
  setup: (project: string) => [...dashboardKeys.all, "setup", project] as const,
};

export const overviewQuery = (s: DashboardSearch) =>
  queryOptions({
    queryKey: dashboardKeys.overview(s),
    queryFn: ({ signal }) => fetchJson(`/api/v1/overview${toQueryString(pick(s, FILTER_SEARCH_KEYS))}`, overviewSchema, signal),
  });

export const toolsQuery = (s: DashboardSearch) =>
  queryOptions({
    queryKey: dashboardKeys.tools(s),
    queryFn: ({ signal }) => fetchJson(`/api/v1/tools${toQueryString(pick(s, [...FILTER_SEARCH_KEYS, "sort", "dir"]))}`, toolsSchema, signal),
  });

export const toolDetailQuery = (tool: string, s: DashboardSearch) =>
  queryOptions({
    queryKey: dashboardKeys.toolDetail(tool, s),
    queryFn: ({ signal }) => fetchJson(`/api/v1/tools/detail${toQueryString({ ...pick(s, FILTER_SEARCH_KEYS), tool })}`, toolDetailSchema, signal),
  });

export const codesQuery = (s: DashboardSearch) =>
  queryOptions({
    queryKey: dashboardKeys.codes(s),
    queryFn: ({ signal }) => fetchJson(`/api/v1/codes${toQueryString(pick(s, [...FILTER_SEARCH_KEYS, "sort", "dir"]))}`, codesSchema, signal),
  });

export const codeHistoryQuery = (code: string, s: DashboardSearch) =>
  queryOptions({
    queryKey: dashboardKeys.codeHistory(code, s),
    queryFn: ({ signal }) => fetchJson(`/api/v1/codes/detail${toQueryString({ ...pick(s, FILTER_SEARCH_KEYS), code })}`, codeHistorySchema, signal),
  });

export const projectsQuery = () =>
  queryOptions({ queryKey: dashboardKeys.projects(), queryFn: ({ signal }) => fetchJson("/api/v1/projects", projectsSchema, signal), staleTime: 300_000 });

export const setupQuery = (project: string) =>
  queryOptions({
    queryKey: dashboardKeys.setup(project),
    queryFn: ({ signal }) => fetchJson(`/api/v1/setup?project=${encodeURIComponent(project)}`, setupSchema, signal),
  });
