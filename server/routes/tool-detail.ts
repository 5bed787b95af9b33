import { getToolDetail } from "@/db/queries/get-tool-detail";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

// `tool` names the subject here, not a filter.
export const toolDetailRoute = defineRoute(endpoints.toolDetail, async ({ query, now }) =>
  getToolDetail(await getStore(), { ...toDashboardParams({ ...query, tool: undefined }, now), tool: query.tool }, { comparePrevious: query.compare === "previous" }),
);
