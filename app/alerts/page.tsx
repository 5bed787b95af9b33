import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { RulesView } from "@/components/alerts/rules-view";
import { alertReceiversRoute, alertRulesRoute } from "@/server/routes/alert-rules";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Alerts · Faultline" };

export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const project = await requireProject(await searchParams);
  const qc = new QueryClient();
  await Promise.all([alertRulesRoute.prefetch(qc, { params: {}, search: { project } }), alertReceiversRoute.prefetch(qc, { params: {}, search: { project } })]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <RulesView />
      </Suspense>
    </HydrationBoundary>
  );
}
