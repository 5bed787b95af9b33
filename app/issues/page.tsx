import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { IssuesView } from "@/components/issues/issues-view";
import { issuesRoute } from "@/server/routes/issues";
import { endpoints } from "@/lib/api/endpoints";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Issues · Faultline" };

export default async function IssuesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.issues, raw, "/issues");
  if (bad) return bad;
  const project = await requireProject(raw);
  const qc = new QueryClient();
  await issuesRoute.prefetch(qc, { params: {}, search: { project } });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <IssuesView />
      </Suspense>
    </HydrationBoundary>
  );
}
