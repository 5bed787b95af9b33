import type { DashboardSearch, SearchKey } from "@/lib/query/search";
import type { SortState } from "./types";

/** The table sort kept in the URL's `sort`/`dir`, as {@link useUrlState} exposes it. */
export function urlSort(
  url: { search: DashboardSearch; update: (patch: Partial<Record<SearchKey, string | undefined>>) => void },
  defaultSort: string,
): SortState {
  return {
    sort: url.search.sort ?? defaultSort,
    dir: url.search.dir ?? "desc",
    // A new order starts at its first page.
    onSort: (column, dir) => url.update({ sort: column, dir, offset: undefined }),
  };
}
