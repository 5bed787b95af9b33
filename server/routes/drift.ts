import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { endpoints } from "@/lib/api/endpoints";
import { codeSchema } from "@/lib/contracts";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const driftFindingsRoute = defineRoute(endpoints.driftFindings, ({ query }) => {
  refreshDrift(getStore(), query.project);
  return listDriftFindings(getStore(), query);
});

export const driftSummaryRoute = defineRoute(endpoints.driftSummary, ({ query }) => {
  refreshDrift(getStore(), query.project);
  return listDriftSummary(getStore(), query);
});

export const codeReleaseHistoryRoute = defineRoute(
  endpoints.codeReleaseHistory,
  ({ query, params }) => {
    refreshDrift(getStore(), query.project);
    return getCodeReleaseHistory(getStore(), { project: query.project, code: params.code, tool: query.tool });
  },
  { params: { code: codeSchema } },
);
