import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { getDriftFreshness } from "@/db/drift/get-drift-freshness";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import type { Store } from "@/db/client";
import { endpoints } from "@/lib/api/endpoints";
import { codeSchema } from "@/lib/contracts";
import { defineRoute } from "../http/define-route";
import { ensureDriftFold } from "../jobs/drift-fold";
import { getStore } from "../store";

/** How fresh the project's drift is; a backlog nobody folds yet starts folding (the read does not wait). */
async function freshness(store: Store, project: string): Promise<boolean> {
  const { upToDate } = await getDriftFreshness(store, project);
  ensureDriftFold(project, upToDate);
  return upToDate;
}

export const driftFindingsRoute = defineRoute(endpoints.driftFindings, async ({ query }) => {
  const store = await getStore();
  const [upToDate, findings] = await Promise.all([freshness(store, query.project), listDriftFindings(store, query)]);
  return { ...findings, upToDate };
});

export const driftSummaryRoute = defineRoute(endpoints.driftSummary, async ({ query }) => {
  const store = await getStore();
  const [upToDate, summary] = await Promise.all([freshness(store, query.project), listDriftSummary(store, query)]);
  return { ...summary, upToDate };
});

export const codeReleaseHistoryRoute = defineRoute(
  endpoints.codeReleaseHistory,
  async ({ query, params }) => {
    const store = await getStore();
    const [, history] = await Promise.all([
      freshness(store, query.project),
      getCodeReleaseHistory(store, { project: query.project, code: params.code, tool: query.tool }),
    ]);
    return history;
  },
  { params: { code: codeSchema } },
);
