import { formatIssues } from "@/lib/contracts";
import { listRunsQuerySchema } from "@/lib/contracts/runs";
import { getStore } from "@/server/store";
import { listRuns } from "@/db/queries/list-runs";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  // An empty filter (`?agent=`) means "no filter", as a cleared form field sends it.
  const entries = [...new URL(req.url).searchParams].filter(([, v]) => v !== "");
  const query = listRunsQuerySchema.safeParse(Object.fromEntries(entries));
  if (!query.success) {
    const issues = query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issues);
  }
  return Response.json(listRuns(getStore(), query.data));
});
