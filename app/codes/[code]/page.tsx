import { HydrationBoundary } from "@tanstack/react-query";
import { getStore } from "@/db/client";
import { getCodeHistory } from "@/db/queries/get-code-history";
import { CodeHistoryView } from "@/components/codes/code-history-view";
import { dashboardKeys } from "@/lib/query/keys";
import { prefetchDashboard } from "../../dashboard-prefetch";
import { prefetchDrift } from "../../drift-prefetch";

export const dynamic = "force-dynamic";

export default async function CodePage({ params, searchParams }: { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = decodeSegment((await params).code);
  const { state } = await prefetchDashboard(await searchParams, (qc, search, p) => {
    const { code: _ignored, ...filters } = p.filters;
    qc.setQueryData(dashboardKeys.codeHistory(code, search), getCodeHistory(getStore(), { ...p, filters, code }));
    prefetchDrift(qc, p.projectId, code);
  });
  return (
    <HydrationBoundary state={state}>
      <CodeHistoryView code={code} />
    </HydrationBoundary>
  );
}

// Links encode the code with encodeURIComponent; the segment arrives still percent-encoded.
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
