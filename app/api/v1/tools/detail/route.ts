import { getStore } from "@/server/store";
import { getToolDetail } from "@/db/queries/get-tool-detail";
import { toDashboardParams } from "@/lib/contracts/filters";
import { toolDetailQuerySchema } from "@/lib/contracts/tools";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

// The tool travels in the query string: tool names may hold any character, including '/'.
export const GET = route((req: Request) => {
  const q = parseQuery(req, toolDetailQuerySchema);
  const params = toDashboardParams({ ...q, tool: undefined }, Date.now());
  return Response.json(getToolDetail(getStore(), { ...params, tool: q.tool }));
});
