import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { RunsListView } from "@/components/runs/runs-list-view";
import { normalizeRunsFilters } from "@/lib/query/runs";
import { runsRoute } from "@/server/routes/runs";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs · Faultline" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const qc = new QueryClient();
  runsRoute.prefetch(qc, { params: {}, search: normalizeRunsFilters(await searchParams) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <RunsListView />
    </HydrationBoundary>
  );
}
