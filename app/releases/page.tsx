import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ReleasesView } from "@/components/releases/releases-view";
import { releasesRoute } from "@/server/routes/releases";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Releases · Faultline" };

export default async function ReleasesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const project = await requireProject(await searchParams);
  const qc = new QueryClient();
  await releasesRoute.prefetch(qc, { params: {}, search: { project, days: "30" } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ReleasesView />
      </Suspense>
    </HydrationBoundary>
  );
}
