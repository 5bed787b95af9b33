"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { normalizeSearch, toQueryString, type DashboardSearch, type SearchKey } from "./search";

/**
 * The URL is the view's state. `update` pushes a history entry (so back/forward step through
 * views); a value of undefined or '' removes the key. The push is the browser's own
 * `history.pushState`, which Next's router follows (useSearchParams updates) without asking the
 * server for the page again: the view's queries refetch, and if the server is gone the page stays
 * with its last data and an error instead of becoming the browser's "site can't be reached".
 */
export function useUrlState(): { search: DashboardSearch; update: (patch: Partial<Record<SearchKey, string | undefined>>) => void; hrefWith: (pathname: string, patch?: Partial<Record<SearchKey, string | undefined>>) => string } {
  const params = useSearchParams();
  const pathname = usePathname();
  const search = useMemo(() => normalizeSearch(new URLSearchParams(params.toString())), [params]);
  const hrefWith = useCallback(
    (path: string, patch: Partial<Record<SearchKey, string | undefined>> = {}) => {
      const next: DashboardSearch = { ...search };
      for (const [k, v] of Object.entries(patch) as [SearchKey, string | undefined][]) {
        if (v === undefined || v === "") delete next[k];
        else next[k] = v;
      }
      return `${path}${toQueryString(next)}`;
    },
    [search],
  );
  const update = useCallback(
    (patch: Partial<Record<SearchKey, string | undefined>>) => window.history.pushState(null, "", hrefWith(pathname, patch)),
    [hrefWith, pathname],
  );
  return { search, update, hrefWith };
}
