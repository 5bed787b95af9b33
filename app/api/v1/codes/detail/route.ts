import { getStore } from "@/db/client";
import { getCodeHistory } from "@/db/queries/get-code-history";
import { codeHistoryQuerySchema } from "@/lib/contracts/codes";
import { toDashboardParams } from "@/lib/contracts/filters";
import { parseQuery } from "@/lib/server/parse-query";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const q = parseQuery(req, codeHistoryQuerySchema);
  const params = toDashboardParams({ ...q, code: undefined }, Date.now());
  return Response.json(getCodeHistory(getStore(), { ...params, code: q.code }));
});
