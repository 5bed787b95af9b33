import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ConformanceView } from "@/components/conformance/conformance-view";
import { conformanceRoute } from "@/server/routes/conformance";

export const dynamic = "force-dynamic";
export const metadata = { title: "Conformance · Faultline" };

export default async function ConformancePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).project;
  const project = (Array.isArray(raw) ? raw[0] : raw) || "default";
  const qc = new QueryClient();
  conformanceRoute.prefetch(qc, { params: {}, search: { project } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ConformanceView />
      </Suspense>
    </HydrationBoundary>
  );
}
