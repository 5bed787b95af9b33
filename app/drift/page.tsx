import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { driftFindingsQuerySchema } from "@/lib/contracts/drift";
import { getStore } from "@/server/store";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { DriftView } from "@/components/drift/drift-view";
import { driftKeys, normalizeDriftFilters } from "@/lib/query/drift";

export const dynamic = "force-dynamic";
export const metadata = { title: "Drift · Faultline" };

export default async function DriftPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filters = normalizeDriftFilters(await searchParams);
  const client = new QueryClient();
  const query = driftFindingsQuerySchema.safeParse(filters);
  // Prefetch so the first paint has the findings; an invalid filter is left to the client's error state.
  if (query.success) {
    const store = getStore();
    refreshDrift(store, query.data.project);
    client.setQueryData(driftKeys.findings(filters), listDriftFindings(store, query.data));
  }
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <DriftView />
    </HydrationBoundary>
  );
}
