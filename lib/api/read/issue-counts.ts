import { issueCountsAnswerSchema, issueCountsQuerySchema } from "@/lib/contracts/issue-counts";
import { defineEndpoint } from "../endpoint";

/** The issue counts per state, for the navigation (apart from `./issues`: it is in every page's script). */
export const issueCountsEndpoints = {
  issueCounts: defineEndpoint({ id: "issue-counts", path: "/api/v1/issues/counts", query: issueCountsQuerySchema, response: issueCountsAnswerSchema }),
} as const;
