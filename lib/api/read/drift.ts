import {
  codeReleaseHistoryQuerySchema,
  codeReleaseHistorySchema,
  driftFindingsQuerySchema,
  driftFindingsResponseSchema,
  driftSummaryQuerySchema,
  driftSummaryResponseSchema,
} from "@/lib/contracts/drift";
import { defineEndpoint } from "../endpoint";

/** Drift findings, their summary and a code's release history. */
export const driftEndpoints = {
  driftFindings: defineEndpoint({ id: "drift-findings", path: "/api/v1/drift", query: driftFindingsQuerySchema, response: driftFindingsResponseSchema }),
  driftSummary: defineEndpoint({ id: "drift-summary", path: "/api/v1/drift/summary", query: driftSummaryQuerySchema, response: driftSummaryResponseSchema }),
  codeReleaseHistory: defineEndpoint<typeof codeReleaseHistoryQuerySchema, typeof codeReleaseHistorySchema, "code">({
    id: "code-release-history",
    path: "/api/v1/drift/codes/:code/history",
    query: codeReleaseHistoryQuerySchema,
    response: codeReleaseHistorySchema,
  }),
} as const;
