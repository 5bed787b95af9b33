import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { RunsListView } from "@/components/runs/runs-list-view";
import { normalizeRunsFilters } from "@/lib/query/runs";
import { endpoints } from "@/lib/api/endpoints";
import { runsRoute } from "@/server/routes/runs";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs · Faultline" };

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.runs, normalizeRunsFilters(raw), "/runs");
  if (bad) return bad;
  await requireProject(raw);
  const qc = new QueryClient();
  await runsRoute.prefetch(qc, { params: {}, search: normalizeRunsFilters(raw) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <RunsListView />
    </HydrationBoundary>
  );
}
