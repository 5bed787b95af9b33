import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { Suspense } from "react";
import { ReleaseHealthView } from "@/components/releases/release-health-view";
import { releaseParamSchema, releasePageQuerySchema } from "@/lib/contracts/releases";
import { ApiError } from "@/server/http/api-error";
import { releaseHealthRoute, releasesRoute } from "@/server/routes/releases";
import { decodeSegment } from "../../decode-segment";
import { badParameter, requireProject } from "../../page-guards";

export const dynamic = "force-dynamic";

const notFoundIsTheViews = (error: unknown) => {
  if (!(error instanceof ApiError)) throw error;
};

export async function generateMetadata({ params }: { params: Promise<{ release: string }> }): Promise<Metadata> {
  return { title: `${decodeSegment((await params).release)} · Releases · Faultline` };
}

export default async function ReleasePage({ params, searchParams }: { params: Promise<{ release: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const release = decodeSegment((await params).release);
  const raw = await searchParams;
  // A release no address could name (too long) is a bad link, not a missing release: the list is where to go.
  const address = { query: releasePageQuerySchema };
  const bad = releaseParamSchema.safeParse(release).success
    ? badParameter(address, { ...raw, release }, `/releases/${encodeURIComponent(release)}`)
    : badParameter(address, { ...raw, release }, "/releases", "See every release");
  if (bad) return bad;
  const project = await requireProject(raw);
  const qc = new QueryClient();
  // An unknown release is the view's to say (the read answers 404): the browser's own read shows it.
  await Promise.all([releaseHealthRoute.prefetch(qc, { params: { release }, search: { project } }).catch(notFoundIsTheViews), releasesRoute.prefetch(qc, { params: {}, search: { project, days: "30" } })]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <ReleaseHealthView release={release} />
      </Suspense>
    </HydrationBoundary>
  );
}
