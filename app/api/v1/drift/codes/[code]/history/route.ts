import { codeSchema, formatIssues } from "@/lib/contracts";
import { codeHistoryQuerySchema } from "@/lib/contracts/drift";
import { getStore } from "@/server/store";
import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ApiError } from "@/server/http/api-error";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request, ctx: { params: Promise<{ code: string }> }) => {
  const code = codeSchema.safeParse((await ctx.params).code);
  const entries = [...new URL(req.url).searchParams].filter(([, v]) => v !== "");
  const query = codeHistoryQuerySchema.safeParse(Object.fromEntries(entries));
  if (!code.success || !query.success) {
    const all = [...(code.error?.issues ?? []), ...(query.error?.issues ?? [])];
    const issues = all.map((i) => ({ path: i.path.length ? i.path.join(".") : "code", message: i.message }));
    throw new ApiError("bad_request", `invalid request: ${formatIssues(all)}`, issues);
  }
  const store = getStore();
  refreshDrift(store, query.data.project);
  return Response.json(getCodeReleaseHistory(store, { project: query.data.project, code: code.data, tool: query.data.tool }));
});
