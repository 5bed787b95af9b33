import { HydrationBoundary } from "@tanstack/react-query";
import { CodesView } from "@/components/codes/codes-view";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { codesRoute } from "@/server/routes/codes";

export const dynamic = "force-dynamic";

export default async function CodesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const state = prefetchPage(await searchParams, (qc, search) => {
    codesRoute.prefetch(qc, { params: {}, search });
    prefetchDrift(qc, search.project);
  });
  return (
    <HydrationBoundary state={state}>
      <CodesView />
    </HydrationBoundary>
  );
}
