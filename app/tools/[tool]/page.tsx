import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { endpoints } from "@/lib/api/endpoints";
import { ToolDetailView } from "@/components/tools/tool-detail-view";
import { prefetchDrift, prefetchPage, prefetchTold } from "@/server/prefetch";
import { toolDetailRoute } from "@/server/routes/tool-detail";
import { decodeSegment } from "../../decode-segment";
import { badParameter, requireProject, requireSubject } from "../../page-guards";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ tool: string }> }): Promise<Metadata> {
  return { title: `${decodeSegment((await params).tool)} · Tools · Faultline` };
}

export default async function ToolPage({ params, searchParams }: { params: Promise<{ tool: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const tool = decodeSegment((await params).tool);
  const raw = await searchParams;
  const bad = badParameter(endpoints.toolDetail, { ...raw, tool }, `/tools/${encodeURIComponent(tool)}`);
  if (bad) return bad;
  await requireSubject(await requireProject(raw), { tool });
  const state = await prefetchPage(raw, async (qc, search) => {
    await Promise.all([toolDetailRoute.prefetch(qc, { params: {}, search: { ...search, tool } }), prefetchDrift(qc, search.project), prefetchTold(qc, { ...search, tool })]);
  });
  return (
    <HydrationBoundary state={state}>
      <ToolDetailView tool={tool} />
    </HydrationBoundary>
  );
}
