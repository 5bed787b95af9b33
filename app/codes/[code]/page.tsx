import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { endpoints } from "@/lib/api/endpoints";
import { CodeHistoryView } from "@/components/codes/code-history-view";
import { prefetchDrift, prefetchPage, prefetchTold } from "@/server/prefetch";
import { codeDetailRoute } from "@/server/routes/code-detail";
import { decodeSegment } from "../../decode-segment";
import { badParameter, requireProject, requireSubject } from "../../page-guards";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ code: string }> }): Promise<Metadata> {
  return { title: `${decodeSegment((await params).code)} · Codes · Faultline` };
}

export default async function CodePage({ params, searchParams }: { params: Promise<{ code: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = decodeSegment((await params).code);
  const raw = await searchParams;
  const bad = badParameter(endpoints.codeDetail, { ...raw, code }, `/codes/${encodeURIComponent(code)}`);
  if (bad) return bad;
  await requireSubject(await requireProject(raw), { code });
  const state = await prefetchPage(raw, async (qc, search) => {
    await Promise.all([codeDetailRoute.prefetch(qc, { params: {}, search: { ...search, code } }), prefetchDrift(qc, search.project, code), prefetchTold(qc, { ...search, code })]);
  });
  return (
    <HydrationBoundary state={state}>
      <CodeHistoryView code={code} />
    </HydrationBoundary>
  );
}
