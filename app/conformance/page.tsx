import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ConformanceView } from "@/components/conformance/conformance-view";
import { getStore } from "@/server/store";
import { getConformance } from "@/db/queries/get-conformance";
import { conformanceKeys } from "@/lib/query/conformance";

export const dynamic = "force-dynamic";
export const metadata = { title: "Conformance · Faultline" };

export default async function ConformancePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).project;
  const project = (Array.isArray(raw) ? raw[0] : raw) || "default";
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: conformanceKeys.project(project), queryFn: () => getConformance(getStore(), { project }) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <Suspense>
        <ConformanceView />
      </Suspense>
    </HydrationBoundary>
  );
}
