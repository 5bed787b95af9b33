import { getStore } from "@/server/store";
import { getCodeDetail } from "@/db/queries/get-code-detail";
import { codeHistoryQuerySchema } from "@/lib/contracts/codes";
import { toDashboardParams } from "@/lib/contracts/filters";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const q = parseQuery(req, codeHistoryQuerySchema);
  const params = toDashboardParams({ ...q, code: undefined }, Date.now());
  return Response.json(getCodeDetail(getStore(), { ...params, code: q.code }));
});
