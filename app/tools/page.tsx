import { HydrationBoundary } from "@tanstack/react-query";
import { ToolsView } from "@/components/tools/tools-view";
import { pick, WINDOW_KEYS } from "@/lib/query/search";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { toolsRoute } from "@/server/routes/tools";

export const dynamic = "force-dynamic";

export default async function ToolsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const state = prefetchPage(await searchParams, (qc, search) => {
    toolsRoute.prefetch(qc, { params: {}, search });
    // The filter bar's facets come from the unfiltered answer of the same window.
    const windowOnly = pick(search, WINDOW_KEYS);
    if (Object.keys(windowOnly).length !== Object.keys(search).length) toolsRoute.prefetch(qc, { params: {}, search: windowOnly });
    prefetchDrift(qc, search.project);
  });
  return (
    <HydrationBoundary state={state}>
      <ToolsView />
    </HydrationBoundary>
  );
}
