import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { getCodeDetail } from "@/db/queries/get-code-detail";
import { CodeHistoryView } from "@/components/codes/code-history-view";
import { dashboardKeys } from "@/lib/query/keys";
import { prefetchDashboard } from "../../dashboard-prefetch";
import { decodeSegment } from "../../decode-segment";
import { prefetchDrift } from "../../drift-prefetch";

export const dynamic = "force-dynamic";

export default async function CodePage({ params, searchParams }: { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = decodeSegment((await params).code);
  const { state } = await prefetchDashboard(await searchParams, (qc, search, p) => {
    const { code: _ignored, ...filters } = p.filters;
    qc.setQueryData(dashboardKeys.codeHistory(code, search), getCodeDetail(getStore(), { ...p, filters, code }));
    prefetchDrift(qc, p.projectId, code);
  });
  return (
    <HydrationBoundary state={state}>
      <CodeHistoryView code={code} />
    </HydrationBoundary>
  );
}
