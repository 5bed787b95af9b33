import { HydrationBoundary } from "@tanstack/react-query";
import { ToolDetailView } from "@/components/tools/tool-detail-view";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { toolDetailRoute } from "@/server/routes/tool-detail";
import { decodeSegment } from "../../decode-segment";

export const dynamic = "force-dynamic";

export default async function ToolPage({ params, searchParams }: { params: Promise<{ tool: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const tool = decodeSegment((await params).tool);
  const state = prefetchPage(await searchParams, (qc, search) => {
    toolDetailRoute.prefetch(qc, { params: {}, search: { ...search, tool } });
    prefetchDrift(qc, search.project);
  });
  return (
    <HydrationBoundary state={state}>
      <ToolDetailView tool={tool} />
    </HydrationBoundary>
  );
}
