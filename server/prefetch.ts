import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { normalizeSearch, type DashboardSearch } from "@/lib/query/search";
import { codeFindingsFilters } from "@/lib/query/drift";
import { codeReleaseHistoryRoute, driftFindingsRoute, driftSummaryRoute } from "./routes/drift";
import { toldSearch, type ToldFilter } from "@/lib/query/told";
import { toldRoute } from "./routes/told";

type RawSearch = Record<string, string | string[] | undefined>;

/**
 * Server-side prefetch of a page: `fill` runs the read routes' own handlers into a query client
 * under the keys the browser will use, so the first paint has data. Each route leaves a query it
 * would refuse to the client, which then shows the API's error.
 */
export async function prefetchPage(raw: RawSearch, fill: (qc: QueryClient, search: DashboardSearch) => Promise<void>): Promise<DehydratedState> {
  const qc = new QueryClient();
  await fill(qc, normalizeSearch(raw));
  return dehydrate(qc);
}

/**
 * Seeds the drift badges' shared summary (and, for a code page, its release history and findings)
 * so they are in the first paint instead of popping in. Drift is an addition to these pages: if it
 * cannot be read now, the page still renders and the client queries fetch it (and show their error).
 */
export async function prefetchDrift(qc: QueryClient, project: string | undefined, code?: string): Promise<void> {
  const p = project ?? "default";
  try {
    await Promise.all([
      driftSummaryRoute.prefetch(qc, { params: {}, search: { project: p } }),
      code === undefined ? undefined : codeReleaseHistoryRoute.prefetch(qc, { params: { code }, search: { project: p } }),
      code === undefined ? undefined : driftFindingsRoute.prefetch(qc, { params: {}, search: codeFindingsFilters(code, project) }),
    ]);
  } catch (err) {
    console.error("[faultline] drift prefetch failed; the page's drift queries will fetch on the client", err);
  }
}

/**
 * Seeds the "After the model was told" panel of a code or tool page. Like drift, an addition: when
 * it cannot be read now the page still renders and the panel's query fetches (and shows its error).
 */
export async function prefetchTold(qc: QueryClient, filter: ToldFilter): Promise<void> {
  try {
    await toldRoute.prefetch(qc, { params: {}, search: toldSearch(filter) });
  } catch (err) {
    console.error("[faultline] told prefetch failed; the panel will fetch on the client", err);
  }
}
