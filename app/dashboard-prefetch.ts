import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { dashboardQuerySchema, toDashboardParams, type DashboardParamsShape } from "@/lib/contracts/filters";
import { normalizeSearch, type DashboardSearch } from "@/lib/query/search";

/**
 * Server-side prefetch: runs the same db/ function the API route runs and seeds the React Query
 * cache under the client's key, so the first paint has data. An unparsable query string is left
 * to the client, which shows the API's error.
 */
export async function prefetchDashboard(
  raw: Record<string, string | string[] | undefined>,
  fill: (qc: QueryClient, search: DashboardSearch, params: DashboardParamsShape, extra: Record<string, string | undefined>) => void,
): Promise<{ state: DehydratedState; search: DashboardSearch }> {
  const search = normalizeSearch(raw);
  const qc = new QueryClient();
  const parsed = dashboardQuerySchema.safeParse(search);
  if (parsed.success) fill(qc, search, toDashboardParams(parsed.data, Date.now()), { sort: search.sort, dir: search.dir });
  return { state: dehydrate(qc), search };
}
