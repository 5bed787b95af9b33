import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { DriftView } from "@/components/drift/drift-view";
import { normalizeDriftFilters } from "@/lib/query/drift";
import { endpoints } from "@/lib/api/endpoints";
import { driftFindingsRoute } from "@/server/routes/drift";
import { issuesRoute } from "@/server/routes/issues";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Drift · Faultline" };

export default async function DriftPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.driftFindings, normalizeDriftFilters(raw), "/drift");
  if (bad) return bad;
  const project = await requireProject(raw);
  const qc = new QueryClient();
  // The issues list too: each card links its issue from the first render.
  await Promise.all([driftFindingsRoute.prefetch(qc, { params: {}, search: normalizeDriftFilters(raw) }), issuesRoute.prefetch(qc, { params: {}, search: { project } })]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <DriftView />
    </HydrationBoundary>
  );
}
