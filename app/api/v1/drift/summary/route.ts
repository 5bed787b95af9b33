import { formatIssues } from "@/lib/contracts";
import { driftSummaryQuerySchema } from "@/lib/contracts/drift";
import { getStore } from "@/server/store";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const entries = [...new URL(req.url).searchParams].filter(([, v]) => v !== "");
  const query = driftSummaryQuerySchema.safeParse(Object.fromEntries(entries));
  if (!query.success) {
    const issues = query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issues);
  }
  const store = getStore();
  refreshDrift(store, query.data.project);
  return Response.json(listDriftSummary(store, query.data));
});
