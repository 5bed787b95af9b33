import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { endpoints } from "@/lib/api/endpoints";
import { OverviewView } from "@/components/overview/overview-view";
import { overviewQuery } from "@/lib/query/keys";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { overviewRoute } from "@/server/routes/overview";
import { setupRoute } from "@/server/routes/projects";
import { badParameter, requireProject } from "./page-guards";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview · Faultline" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.overview, raw);
  if (bad) return bad;
  await requireProject(raw);
  const state = await prefetchPage(raw, async (qc, search) => {
    await overviewRoute.prefetch(qc, { params: {}, search });
    const overview = qc.getQueryData(overviewQuery(search).queryKey);
    // An empty project shows the first-run guide, which reads the setup info instead of drift.
    if (overview && !overview.hasData) await setupRoute.prefetch(qc, { params: {}, search: { project: overview.project } });
    else if (overview) await prefetchDrift(qc, search.project);
  });
  return (
    <HydrationBoundary state={state}>
      <OverviewView />
    </HydrationBoundary>
  );
}
