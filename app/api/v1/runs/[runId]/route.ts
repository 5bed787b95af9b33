import { formatIssues } from "@/lib/contracts";
import { runTimelineQuerySchema } from "@/lib/contracts/runs";
import { getStore } from "@/server/store";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request, ctx: { params: Promise<{ runId: string }> }) => {
  const { runId } = await ctx.params;
  const query = runTimelineQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success) {
    const issues = query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issues);
  }
  const timeline = getRunTimeline(getStore(), query.data.project, runId);
  if (!timeline) throw new ApiError("not_found", "no run with this id in this project");
  return Response.json(timeline);
});
