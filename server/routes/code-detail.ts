import { getCodeDetail } from "@/db/queries/get-code-detail";
import { endpoints } from "@/lib/api/endpoints";
import { toDashboardParams } from "@/lib/contracts/filters";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

// `code` names the subject here, not a filter.
export const codeDetailRoute = defineRoute(endpoints.codeDetail, async ({ query, now }) =>
  getCodeDetail(await getStore(), { ...toDashboardParams({ ...query, code: undefined }, now), code: query.code }),
);
