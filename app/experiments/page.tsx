import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ExperimentsView } from "@/components/experiments/experiments-view";
import { experimentsRoute } from "@/server/routes/experiments";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Experiments · Faultline" };

export default async function ExperimentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const project = await requireProject(await searchParams);
  const qc = new QueryClient();
  await experimentsRoute.prefetch(qc, { params: { project }, search: {} });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ExperimentsView />
      </Suspense>
    </HydrationBoundary>
  );
}
