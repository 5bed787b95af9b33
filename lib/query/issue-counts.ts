import { issueCountsEndpoints } from "@/lib/api/read/issue-counts";
import { endpointQuery } from "./endpoint-query";

/** The project's issue counts per state (the navigation's badge). */
export const issueCountsOptions = (project: string) => endpointQuery(issueCountsEndpoints.issueCounts, { params: {}, search: { project } });
