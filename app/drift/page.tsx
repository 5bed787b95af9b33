import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { DriftView } from "@/components/drift/drift-view";
import { normalizeDriftFilters } from "@/lib/query/drift";
import { driftFindingsRoute } from "@/server/routes/drift";

export const dynamic = "force-dynamic";
export const metadata = { title: "Drift · Faultline" };

export default async function DriftPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const qc = new QueryClient();
  driftFindingsRoute.prefetch(qc, { params: {}, search: normalizeDriftFilters(await searchParams) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <DriftView />
    </HydrationBoundary>
  );
}
