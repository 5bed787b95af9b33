import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { TextSearchView } from "@/components/search/text-search-view";
import { endpoints } from "@/lib/api/endpoints";
import { normalizeQuery } from "@/lib/api/endpoint";
import { textSearchRoute } from "@/server/routes/text-search";
import { requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Search · Faultline" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const project = await requireProject(raw);
  const qc = new QueryClient();
  const search: Record<string, string> = { ...normalizeQuery(endpoints.textSearch, raw), project };
  // A query the API refuses (no word in it) is shown on the page with the API's reason, not prefetched.
  if (search.q !== undefined && endpoints.textSearch.query.safeParse(search).success) await textSearchRoute.prefetch(qc, { params: {}, search });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <TextSearchView />
      </Suspense>
    </HydrationBoundary>
  );
}
