import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { getOverview } from "@/db/queries/get-overview";
import { getSetupInfo } from "@/db/queries/get-setup-info";
import { OverviewView } from "@/components/overview/overview-view";
import { dashboardKeys } from "@/lib/query/keys";
import { prefetchDashboard } from "./dashboard-prefetch";
import { prefetchDrift } from "./drift-prefetch";

export const dynamic = "force-dynamic";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { state } = await prefetchDashboard(await searchParams, (qc, search, params) => {
    const overview = getOverview(getStore(), params);
    qc.setQueryData(dashboardKeys.overview(search), overview);
    if (!overview.hasData) qc.setQueryData(dashboardKeys.setup(params.projectId), getSetupInfo(getStore(), params.projectId));
    else prefetchDrift(qc, params.projectId);
  });
  return (
    <HydrationBoundary state={state}>
      <OverviewView />
    </HydrationBoundary>
  );
}
