/** The query-string keys the dashboard pages understand; everything else in the URL is ignored. */
export const SEARCH_KEYS = [
  "project", "range", "from", "to", "tool", "code", "outcome", "error_class", "release", "service", "environment", "sort", "dir", "q", "offset",
  // View settings, not filters: the Overview's comparison and the auto-refresh interval.
  "compare", "refresh",
] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];
export type DashboardSearch = Partial<Record<SearchKey, string>>;

/** Keeps known, non-empty keys in a fixed order: the same view always gives the same query key and URL. */
export function normalizeSearch(input: URLSearchParams | Record<string, string | string[] | undefined>): DashboardSearch {
  const get = (k: string): string | undefined => {
    if (input instanceof URLSearchParams) return input.get(k) ?? undefined;
    const v = input[k];
    return Array.isArray(v) ? v[0] : v;
  };
  const out: DashboardSearch = {};
  for (const k of SEARCH_KEYS) {
    const v = get(k);
    if (v !== undefined && v !== "") out[k] = v;
  }
  return out;
}

export function toQueryString(search: DashboardSearch, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const k of SEARCH_KEYS) {
    const v = search[k];
    if (v !== undefined) params.set(k, v);
  }
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** Only the keys a given endpoint reads, so that e.g. the tools sort does not refetch the overview. */
export function pick(search: DashboardSearch, keys: readonly SearchKey[]): DashboardSearch {
  const out: DashboardSearch = {};
  for (const k of keys) if (search[k] !== undefined) out[k] = search[k];
  return out;
}

export const WINDOW_KEYS = ["project", "range", "from", "to"] as const satisfies readonly SearchKey[];
export const FILTER_SEARCH_KEYS = [...WINDOW_KEYS, "tool", "code", "outcome", "error_class", "release", "service", "environment"] as const satisfies readonly SearchKey[];
