import { getOverview } from "@/db/queries/get-overview";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const overviewRoute = defineRoute(endpoints.overview, async ({ query, now }) => getOverview(await getStore(), toDashboardParams(query, now), { comparePrevious: query.compare === "previous" }));
