import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { endpoints } from "@/lib/api/endpoints";
import { ToolsView } from "@/components/tools/tools-view";
import { pick, WINDOW_KEYS } from "@/lib/query/search";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { toolsRoute } from "@/server/routes/tools";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tools · Faultline" };

export default async function ToolsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.tools, raw, "/tools");
  if (bad) return bad;
  await requireProject(raw);
  const state = await prefetchPage(raw, async (qc, search) => {
    // The filter bar's facets come from the unfiltered answer of the same window.
    const windowOnly = pick(search, WINDOW_KEYS);
    const filtered = Object.keys(windowOnly).length !== Object.keys(search).length;
    await Promise.all([
      toolsRoute.prefetch(qc, { params: {}, search }),
      filtered ? toolsRoute.prefetch(qc, { params: {}, search: windowOnly }) : undefined,
      prefetchDrift(qc, search.project),
    ]);
  });
  return (
    <HydrationBoundary state={state}>
      <ToolsView />
    </HydrationBoundary>
  );
}
