import { formatIssues } from "@/lib/contracts";
import { driftSummaryQuerySchema } from "@/lib/contracts/drift";
import { getStore } from "@/db/client";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ApiError } from "@/lib/server/api-error";
import { route } from "@/lib/server/route";

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
