import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { listRuns } from "@/db/queries/list-runs";
import { RunsListView } from "@/components/runs/runs-list-view";
import { normalizeRunsFilters, parseRunsFilters, runsKeys } from "@/lib/query/runs";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs · Faultline" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filters = normalizeRunsFilters(await searchParams);
  const queryClient = new QueryClient();
  const parsed = parseRunsFilters(filters);
  // A bad query string is left to the client, which shows the API's own error message.
  if (parsed.success) {
    await queryClient.prefetchQuery({ queryKey: runsKeys.list(filters), queryFn: () => listRuns(getStore(), parsed.data) });
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <RunsListView />
    </HydrationBoundary>
  );
}
