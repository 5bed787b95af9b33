import type { QueryClient } from "@tanstack/react-query";
import { getStore } from "@/server/store";
import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { listDriftSummary } from "@/db/drift/list-drift-summary";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { driftKeys, normalizeDriftFilters } from "@/lib/query/drift";

/**
 * Seeds the drift badges' shared summary (and, for a code page, its release history and findings)
 * so badges and the release chart are in the first paint instead of popping in. Drift is an
 * addition to these pages: if it cannot be computed now, the page still renders and the client
 * queries fetch it (and show their own error).
 */
export function prefetchDrift(qc: QueryClient, project: string, code?: string): void {
  const store = getStore();
  try {
    refreshDrift(store, project);
    qc.setQueryData(driftKeys.summary(project), listDriftSummary(store, { project }));
    if (code === undefined) return;
    qc.setQueryData(driftKeys.history(project, code, null), getCodeReleaseHistory(store, { project, code }));
    const filters = normalizeDriftFilters({ project: project === "default" ? undefined : project, code });
    qc.setQueryData(driftKeys.findings(filters), listDriftFindings(store, { project, code }));
  } catch (err) {
    console.error("drift prefetch failed; the page's drift queries will fetch on the client", err);
  }
}
