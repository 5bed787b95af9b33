import { listCodes } from "@/db/queries/list-codes";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const codesRoute = defineRoute(endpoints.codes, async ({ query, now }) =>
  listCodes(await getStore(), { ...toDashboardParams(query, now), sort: query.sort, dir: query.dir, page: query }),
);
