import { getStore } from "@/server/store";
import { getOverview } from "@/db/queries/get-overview";
import { toDashboardParams } from "@/lib/contracts/filters";
import { overviewQuerySchema } from "@/lib/contracts/overview";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const q = parseQuery(req, overviewQuerySchema);
  return Response.json(getOverview(getStore(), toDashboardParams(q, Date.now())));
});
