import { runsEndpoints } from "@/lib/api/read/runs";
import type { ListRunsQuery } from "@/lib/contracts/runs";
import { endpointQuery } from "./endpoint-query";

/** The runs list filters as the URL carries them (all optional strings). */
export type RunsFilters = Partial<Record<Exclude<keyof ListRunsQuery, "limit">, string>>;

/** The filters the runs list reads from the URL: every query parameter of its endpoint but the page size. */
export const RUN_FILTER_KEYS = Object.keys(runsEndpoints.runs.query.shape).filter((k) => k !== "limit") as (keyof RunsFilters)[];

// Runs page links bookmarked before the read API went camelCase still filter the same way.
const LEGACY_URL_KEYS: Partial<Record<keyof RunsFilters, string>> = { hasErrors: "has_errors" };

/** Keeps only the known, non-empty filters, in a fixed order, so equal filters make equal keys. */
export function normalizeRunsFilters(input: Record<string, string | string[] | undefined>): RunsFilters {
  const out: RunsFilters = {};
  for (const key of RUN_FILTER_KEYS) {
    const legacy = LEGACY_URL_KEYS[key];
    const raw = input[key] ?? (legacy === undefined ? undefined : input[legacy]);
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

export const runsListOptions = (filters: RunsFilters) => endpointQuery(runsEndpoints.runs, { params: {}, search: filters });

/** The values the runs filters can take, for their suggestions; they change slowly. */
export const runFacetsOptions = (project: string | undefined) => ({
  ...endpointQuery(runsEndpoints.runFacets, { params: {}, search: { project: project ?? "default" } }),
  staleTime: 60_000,
});
