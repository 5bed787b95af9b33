import { formatIssues } from "@/lib/contracts";
import { driftFindingsQuerySchema } from "@/lib/contracts/drift";
import { getStore } from "@/server/store";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  // An empty filter (`?kind=`) means "no filter", as a cleared form field sends it.
  const entries = [...new URL(req.url).searchParams].filter(([, v]) => v !== "");
  const query = driftFindingsQuerySchema.safeParse(Object.fromEntries(entries));
  if (!query.success) {
    const issues = query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issues);
  }
  const store = getStore();
  // Folds in what arrived since the last read; a no-op when nothing did.
  refreshDrift(store, query.data.project);
  return Response.json(listDriftFindings(store, query.data));
});
