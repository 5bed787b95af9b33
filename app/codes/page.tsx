import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { endpoints } from "@/lib/api/endpoints";
import { CodesView } from "@/components/codes/codes-view";
import { prefetchDrift, prefetchPage } from "@/server/prefetch";
import { codesRoute } from "@/server/routes/codes";
import { badParameter, requireProject } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Codes · Faultline" };

export default async function CodesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const bad = badParameter(endpoints.codes, raw, "/codes");
  if (bad) return bad;
  await requireProject(raw);
  const state = await prefetchPage(raw, async (qc, search) => {
    await Promise.all([codesRoute.prefetch(qc, { params: {}, search }), prefetchDrift(qc, search.project)]);
  });
  return (
    <HydrationBoundary state={state}>
      <CodesView />
    </HydrationBoundary>
  );
}
