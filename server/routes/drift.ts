import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { getDriftFreshness } from "@/db/drift/get-drift-freshness";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import { endpoints } from "@/lib/api/endpoints";
import { codeSchema } from "@/lib/contracts";
import { defineRoute } from "../http/define-route";
import { ensureDriftFold } from "../jobs/drift-fold";
import { getStore } from "../store";

/** How fresh the project's drift is; a backlog nobody folds yet starts folding (the read does not wait). */
function freshness(project: string): boolean {
  const { upToDate } = getDriftFreshness(getStore(), project);
  ensureDriftFold(project, upToDate);
  return upToDate;
}

export const driftFindingsRoute = defineRoute(endpoints.driftFindings, ({ query }) => {
  const upToDate = freshness(query.project);
  return { ...listDriftFindings(getStore(), query), upToDate };
});

export const driftSummaryRoute = defineRoute(endpoints.driftSummary, ({ query }) => {
  const upToDate = freshness(query.project);
  return { ...listDriftSummary(getStore(), query), upToDate };
});

export const codeReleaseHistoryRoute = defineRoute(
  endpoints.codeReleaseHistory,
  ({ query, params }) => {
    freshness(query.project);
    return getCodeReleaseHistory(getStore(), { project: query.project, code: params.code, tool: query.tool });
  },
  { params: { code: codeSchema } },
);
