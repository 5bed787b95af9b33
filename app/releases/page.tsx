import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { ReleasesView } from "@/components/releases/releases-view";
import { normalizeQuery } from "@/lib/api/endpoint";
import { endpoints } from "@/lib/api/endpoints";
import { releasesRoute } from "@/server/routes/releases";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Releases · Faultline" };

export default async function ReleasesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.releases, raw, "/releases");
  if (bad) return bad;
  const project = await requireProject(raw);
  // `?days=` sets the adoption chart's window (30 days unless a link says otherwise).
  const { days } = endpoints.releases.query.parse(normalizeQuery(endpoints.releases, raw));
  const qc = new QueryClient();
  await releasesRoute.prefetch(qc, { params: {}, search: { project, days: String(days) } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ReleasesView days={days} />
      </Suspense>
    </HydrationBoundary>
  );
}
