import { queryOptions } from "@tanstack/react-query";
import { listRunsQuerySchema, runListResponseSchema, runTimelineSchema, type ListRunsQuery } from "@/lib/contracts/runs";
import { fetchJson } from "./fetch-json";

/** The runs list filters as the URL carries them (all optional strings). */
export type RunsFilters = Partial<Record<Exclude<keyof ListRunsQuery, "limit">, string>>;

export const RUN_FILTER_KEYS = ["project", "agent", "release", "state", "from", "to", "has_errors", "tool", "code", "cursor"] as const;

/** Keeps only the known, non-empty filters, in a fixed order, so equal filters make equal keys. */
export function normalizeRunsFilters(input: Record<string, string | string[] | undefined>): RunsFilters {
  const out: RunsFilters = {};
  for (const key of RUN_FILTER_KEYS) {
    const raw = input[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

/** The same filters parsed the way the API parses them (for server-side prefetch). */
export const parseRunsFilters = (filters: RunsFilters) => listRunsQuerySchema.safeParse(filters);

export const runsKeys = {
  all: ["runs"] as const,
  list: (filters: RunsFilters) => ["runs", "list", filters] as const,
  timeline: (project: string, runId: string) => ["runs", "timeline", project, runId] as const,
};

export function runsListOptions(filters: RunsFilters) {
  const qs = new URLSearchParams(filters as Record<string, string>).toString();
  return queryOptions({
    queryKey: runsKeys.list(filters),
    queryFn: ({ signal }) => fetchJson(`/api/v1/runs${qs ? `?${qs}` : ""}`, runListResponseSchema, signal),
  });
}

export function runTimelineOptions(project: string, runId: string) {
  const qs = project === "default" ? "" : `?project=${encodeURIComponent(project)}`;
  return queryOptions({
    queryKey: runsKeys.timeline(project, runId),
    queryFn: ({ signal }) => fetchJson(`/api/v1/runs/${encodeURIComponent(runId)}${qs}`, runTimelineSchema, signal),
    // A finished run does not change; re-reading 12,000 attempts on every focus would be waste.
    staleTime: 60_000,
  });
}
