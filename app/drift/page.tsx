import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { DriftView } from "@/components/drift/drift-view";
import { normalizeDriftFilters } from "@/lib/query/drift";
import { endpoints } from "@/lib/api/endpoints";
import { driftFindingsRoute } from "@/server/routes/drift";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Drift · Faultline" };

export default async function DriftPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.driftFindings, normalizeDriftFilters(raw), "/drift");
  if (bad) return bad;
  await requireProject(raw);
  const qc = new QueryClient();
  await driftFindingsRoute.prefetch(qc, { params: {}, search: normalizeDriftFilters(raw) });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <DriftView />
    </HydrationBoundary>
  );
}
