import { getStore } from "@/server/store";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { RunTimelineView } from "@/components/runs/run-timeline-view";
import { RUN_PAGE_ATTEMPTS } from "@/lib/contracts/runs";
import { decodeSegment } from "../../decode-segment";
import { notFoundBecause, requireProject } from "../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Run · Faultline" };

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const runId = decodeSegment((await params).runId);
  const sp = await searchParams;
  const project = await requireProject(sp);
  const timeline = await getRunTimeline(await getStore(), project, runId, { limit: RUN_PAGE_ATTEMPTS });
  if (!timeline) notFoundBecause(`There is no run “${runId}” in project “${project}”.`);
  // One JSON string instead of a dehydrated object: React's RSC encoder walks every value of a
  // 12,000-attempt run, a string it copies whole (measured in bench/timeline.ts).
  return <RunTimelineView project={project} runId={runId} initialJson={JSON.stringify(timeline)} />;
}
