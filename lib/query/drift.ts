import { driftEndpoints } from "@/lib/api/read/drift";
import { endpointQuery } from "./endpoint-query";
import { whileFolding } from "./drift-summary";

export { driftSummaryOptions } from "./drift-summary";

/** The Drift page filters as the URL carries them, and the page of findings (`offset`). */
export const DRIFT_FILTER_KEYS = ["project", "kind", "severity", "tool", "code", "offset"] as const;
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

/** The findings a code page shows (the server prefetch seeds the same key). */
export const codeFindingsFilters = (code: string, project: string | undefined) =>
  normalizeDriftFilters({ project: project === "default" ? undefined : project, code });

export const driftFindingsOptions = (filters: DriftFilters) => ({
  ...endpointQuery(driftEndpoints.driftFindings, { params: {}, search: filters }),
  refetchInterval: (q: { state: { data?: { upToDate: boolean } } }) => whileFolding(q.state.data),
});

export const codeHistoryOptions = (code: string, tool: string | null = null, project = "default") =>
  endpointQuery(driftEndpoints.codeReleaseHistory, { params: { code }, search: { project, tool: tool ?? undefined } });
