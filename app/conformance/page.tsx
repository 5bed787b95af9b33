import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ConformanceView } from "@/components/conformance/conformance-view";
import { conformanceRoute } from "@/server/routes/conformance";
import { endpoints } from "@/lib/api/endpoints";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Conformance · Faultline" };

export default async function ConformancePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.conformance, raw, "/conformance");
  if (bad) return bad;
  const project = await requireProject(raw);
  const qc = new QueryClient();
  await conformanceRoute.prefetch(qc, { params: {}, search: { project } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ConformanceView />
      </Suspense>
    </HydrationBoundary>
  );
}
