import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { listCodes } from "@/db/queries/list-codes";
import { CodesView } from "@/components/codes/codes-view";
import { codesQuerySchema } from "@/lib/contracts/codes";
import { dashboardKeys } from "@/lib/query/keys";
import { prefetchDashboard } from "../dashboard-prefetch";
import { prefetchDrift } from "../drift-prefetch";

export const dynamic = "force-dynamic";

export default async function CodesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { state } = await prefetchDashboard(await searchParams, (qc, search, params) => {
    const q = codesQuerySchema.safeParse(search);
    if (q.success) qc.setQueryData(dashboardKeys.codes(search), listCodes(getStore(), { ...params, sort: q.data.sort, dir: q.data.dir }));
    prefetchDrift(qc, params.projectId);
  });
  return (
    <HydrationBoundary state={state}>
      <CodesView />
    </HydrationBoundary>
  );
}
