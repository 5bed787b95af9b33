import { driftSummaryEndpoints } from "@/lib/api/read/drift-summary";
import { endpointQuery } from "./endpoint-query";

// While the server is still folding ingested rows into drift, look again soon instead of showing
// the older findings until the next focus.
const FOLDING_POLL_MS = 2000;
/** How soon to look again: every 2 s while the server says drift is not up to date, else not at all. */
export const whileFolding = (data: { upToDate: boolean } | undefined) => (data?.upToDate === false ? FOLDING_POLL_MS : false);

/** Which codes and tools have findings; one shared query however many badges a page shows. */
export const driftSummaryOptions = (project = "default") => ({
  ...endpointQuery(driftSummaryEndpoints.driftSummary, { params: {}, search: { project } }),
  staleTime: 60_000,
  refetchInterval: (q: { state: { data?: { upToDate: boolean } } }) => whileFolding(q.state.data),
});
