import { HydrationBoundary } from "@tanstack/react-query";
import { CodeHistoryView } from "@/components/codes/code-history-view";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { codeDetailRoute } from "@/server/routes/code-detail";
import { decodeSegment } from "../../decode-segment";

export const dynamic = "force-dynamic";

export default async function CodePage({ params, searchParams }: { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = decodeSegment((await params).code);
  const state = prefetchPage(await searchParams, (qc, search) => {
    codeDetailRoute.prefetch(qc, { params: {}, search: { ...search, code } });
    prefetchDrift(qc, search.project, code);
  });
  return (
    <HydrationBoundary state={state}>
      <CodeHistoryView code={code} />
    </HydrationBoundary>
  );
}
