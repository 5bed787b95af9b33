import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { listTools } from "@/db/queries/list-tools";
import { ToolsView } from "@/components/tools/tools-view";
import { toolsQuerySchema } from "@/lib/contracts/tools";
import { dashboardKeys } from "@/lib/query/keys";
import { pick, WINDOW_KEYS } from "@/lib/query/search";
import { prefetchDashboard } from "../dashboard-prefetch";
import { prefetchDrift } from "../drift-prefetch";

export const dynamic = "force-dynamic";

export default async function ToolsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { state } = await prefetchDashboard(await searchParams, (qc, search, params) => {
    const q = toolsQuerySchema.safeParse(search);
    if (!q.success) return;
    prefetchDrift(qc, params.projectId);
    qc.setQueryData(dashboardKeys.tools(search), listTools(getStore(), { ...params, sort: q.data.sort, dir: q.data.dir }));
    // The filter bar's facets come from the unfiltered answer of the same window.
    const windowOnly = pick(search, WINDOW_KEYS);
    if (Object.keys(windowOnly).length !== Object.keys(search).length) {
      qc.setQueryData(dashboardKeys.tools(windowOnly), listTools(getStore(), { ...params, filters: {}, sort: "failures", dir: "desc" }));
    }
  });
  return (
    <HydrationBoundary state={state}>
      <ToolsView />
    </HydrationBoundary>
  );
}
