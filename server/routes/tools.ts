import { listTools } from "@/db/queries/list-tools";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";
import { toolsCsv, toolsNdjson } from "./tools-export";

export const toolsRoute = defineRoute(endpoints.tools, ({ query, now }) => {
  const answer = listTools(getStore(), { ...toDashboardParams(query, now), sort: query.sort, dir: query.dir });
  if (query.format === "json") return answer;
  const csv = query.format === "csv";
  return new Response(csv ? toolsCsv(answer.tools) : toolsNdjson(answer.tools), {
    headers: {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="faultline-tools-${answer.window.from}-${answer.window.to}.${csv ? "csv" : "ndjson"}"`,
    },
  });
});
