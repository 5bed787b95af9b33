import { formatIssues } from "@/lib/contracts";
import { conformanceQuerySchema } from "@/lib/contracts/conformance";
import { getStore } from "@/server/store";
import { getConformance } from "@/db/queries/get-conformance";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** What each ingest format's tool spans lack, per project. */
export const GET = route((req: Request) => {
  const entries = [...new URL(req.url).searchParams].filter(([, v]) => v !== "");
  const query = conformanceQuerySchema.safeParse(Object.fromEntries(entries));
  if (!query.success) {
    const issues = query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issues);
  }
  return Response.json(getConformance(getStore(), query.data));
});
