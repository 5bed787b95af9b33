import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ConformanceView } from "@/components/conformance/conformance-view";
import { conformanceRoute } from "@/server/routes/conformance";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Conformance · Faultline" };

export default async function ConformancePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const project = await requireProject(await searchParams);
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
