import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { codeHistoryResponseSchema, driftFindingsResponseSchema, driftSummaryResponseSchema } from "@/lib/contracts/drift";

/** The Drift page filters as the URL carries them. */
export const DRIFT_FILTER_KEYS = ["project", "kind", "severity", "tool", "code"] as const;
export type DriftFilters = Partial<Record<(typeof DRIFT_FILTER_KEYS)[number], string>>;

/** Keeps only known, non-empty filters in a fixed order, so equal filters make equal query keys. */
export function normalizeDriftFilters(input: Record<string, string | string[] | undefined>): DriftFilters {
  const out: DriftFilters = {};
  for (const key of DRIFT_FILTER_KEYS) {
    const raw = input[key];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (value) out[key] = value;
  }
  return out;
}

export const driftKeys = {
  all: ["drift"] as const,
  findings: (filters: DriftFilters) => ["drift", "findings", filters] as const,
  summary: (project: string) => ["drift", "summary", project] as const,
  history: (project: string, code: string, tool: string | null) => ["drift", "history", project, code, tool] as const,
};

const withQuery = (path: string, params: Record<string, string | undefined>) => {
  const qs = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return qs ? `${path}?${qs}` : path;
};

export function driftFindingsOptions(filters: DriftFilters) {
  return queryOptions({
    queryKey: driftKeys.findings(filters),
    queryFn: ({ signal }) => fetchJson(withQuery("/api/v1/drift", filters), driftFindingsResponseSchema, signal),
  });
}

/** Which codes and tools have findings; one shared query however many badges a page shows. */
export function driftSummaryOptions(project = "default") {
  return queryOptions({
    queryKey: driftKeys.summary(project),
    queryFn: ({ signal }) =>
      fetchJson(withQuery("/api/v1/drift/summary", { project: project === "default" ? undefined : project }), driftSummaryResponseSchema, signal),
    staleTime: 60_000,
  });
}

export function codeHistoryOptions(code: string, tool: string | null = null, project = "default") {
  return queryOptions({
    queryKey: driftKeys.history(project, code, tool),
    queryFn: ({ signal }) =>
      fetchJson(
        withQuery(`/api/v1/drift/codes/${encodeURIComponent(code)}/history`, { project: project === "default" ? undefined : project, tool: tool ?? undefined }),
        codeHistoryResponseSchema,
        signal,
      ),
  });
}
