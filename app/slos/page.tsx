import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { SlosView } from "@/components/slos/slos-view";
import { sloDetailRoute, slosRoute } from "@/server/routes/slos";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "SLOs · Faultline" };

export default async function SlosPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const project = await requireProject(search);
  const qc = new QueryClient();
  const slo = typeof search.slo === "string" && /^[1-9]\d{0,15}$/.test(search.slo) ? search.slo : null;
  await Promise.all([
    slosRoute.prefetch(qc, { params: {}, search: { project } }),
    // An SLO of another project (or none) is left to the view, which shows only the project's.
    slo ? sloDetailRoute.prefetch(qc, { params: {}, search: { project, id: slo } }).catch(() => undefined) : null,
  ]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <SlosView />
      </Suspense>
    </HydrationBoundary>
  );
}
