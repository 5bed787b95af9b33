import { listTools } from "@/db/queries/list-tools";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";
import { toolsCsv, toolsNdjson } from "./tools-export";

// "faultline-tools-default-2026-01-10T0000Z-to-2026-01-10T0300Z": readable UTC minutes, no ':' (Windows).
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace(":", "") + "Z";
const exportName = (project: string, w: { from: number; to: number }) =>
  `faultline-tools-${project.replace(/[^A-Za-z0-9_-]/g, "_")}-${stamp(w.from)}-to-${stamp(w.to)}`;

export const toolsRoute = defineRoute(endpoints.tools, async ({ query, now }) => {
  // An export holds every row the filters and `q` match; the JSON answer one page.
  const page = query.format === "json" ? query : { q: query.q, offset: 0, limit: Number.MAX_SAFE_INTEGER };
  const answer = await listTools(await getStore(), { ...toDashboardParams(query, now), sort: query.sort, dir: query.dir, page });
  if (query.format === "json") return answer;
  const csv = query.format === "csv";
  return new Response(csv ? toolsCsv(answer.tools) : toolsNdjson(answer.tools), {
    headers: {
      "Content-Type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportName(answer.project, answer.window)}.${csv ? "csv" : "ndjson"}"`,
    },
  });
});
