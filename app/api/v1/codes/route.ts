import { getStore } from "@/server/store";
import { listCodes } from "@/db/queries/list-codes";
import { codesQuerySchema } from "@/lib/contracts/codes";
import { toDashboardParams } from "@/lib/contracts/filters";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const q = parseQuery(req, codesQuerySchema);
  return Response.json(listCodes(getStore(), { ...toDashboardParams(q, Date.now()), sort: q.sort, dir: q.dir }));
});
