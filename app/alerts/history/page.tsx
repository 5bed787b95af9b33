import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { HistoryView } from "@/components/alerts/history-view";
import { alertHistoryRoute } from "@/server/routes/alert-rules";
import { requireProject } from "../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Alert history · Faultline" };

export default async function AlertHistoryPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const project = await requireProject(await searchParams);
  const qc = new QueryClient();
  await alertHistoryRoute.prefetch(qc, { params: {}, search: { project } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <HistoryView />
      </Suspense>
    </HydrationBoundary>
  );
}
