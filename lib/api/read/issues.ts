import { issueDetailQuerySchema, issueDetailSchema, issuesQuerySchema, issuesSchema } from "@/lib/contracts/issues";
import { defineEndpoint } from "../endpoint";

/** Issues and one issue. */
export const issuesEndpoints = {
  issues: defineEndpoint({ id: "issues", path: "/api/v1/issues", query: issuesQuerySchema, response: issuesSchema }),
  issueDetail: defineEndpoint<typeof issueDetailQuerySchema, typeof issueDetailSchema, "id">({
    id: "issue-detail",
    path: "/api/v1/issues/:id",
    query: issueDetailQuerySchema,
    response: issueDetailSchema,
  }),
} as const;
