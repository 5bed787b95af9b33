import { getStore } from "@/server/store";
import { listTools } from "@/db/queries/list-tools";
import { toDashboardParams } from "@/lib/contracts/filters";
import { toolsQuerySchema } from "@/lib/contracts/tools";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";
import { toolsCsv, toolsNdjson } from "./export";

export const dynamic = "force-dynamic";

export const GET = route((req: Request) => {
  const q = parseQuery(req, toolsQuerySchema);
  const answer = listTools(getStore(), { ...toDashboardParams(q, Date.now()), sort: q.sort, dir: q.dir });
  if (q.format === "json") return Response.json(answer);
  const csv = q.format === "csv";
  return new Response(csv ? toolsCsv(answer.tools) : toolsNdjson(answer.tools), {
    headers: {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="faultline-tools-${answer.window.from}-${answer.window.to}.${csv ? "csv" : "ndjson"}"`,
    },
  });
});
