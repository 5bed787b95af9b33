import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { getToolDetail } from "@/db/queries/get-tool-detail";
import { ToolDetailView } from "@/components/tools/tool-detail-view";
import { dashboardKeys } from "@/lib/query/keys";
import { prefetchDashboard } from "../../dashboard-prefetch";
import { decodeSegment } from "../../decode-segment";
import { prefetchDrift } from "../../drift-prefetch";

export const dynamic = "force-dynamic";

export default async function ToolPage({ params, searchParams }: { params: Promise<{ tool: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const tool = decodeSegment((await params).tool);
  const { state } = await prefetchDashboard(await searchParams, (qc, search, p) => {
    const { tool: _ignored, ...filters } = p.filters;
    qc.setQueryData(dashboardKeys.toolDetail(tool, search), getToolDetail(getStore(), { ...p, filters, tool }));
    prefetchDrift(qc, p.projectId);
  });
  return (
    <HydrationBoundary state={state}>
      <ToolDetailView tool={tool} />
    </HydrationBoundary>
  );
}
