import {
  codeReleaseHistoryQuerySchema,
  codeReleaseHistorySchema,
  driftFindingsQuerySchema,
  driftFindingsResponseSchema,
} from "@/lib/contracts/drift";
import { defineEndpoint } from "../endpoint";

/** Drift findings and a code's release history (the summary, for badges on other pages, is in `./drift-summary`). */
export const driftEndpoints = {
  driftFindings: defineEndpoint({ id: "drift-findings", path: "/api/v1/drift", query: driftFindingsQuerySchema, response: driftFindingsResponseSchema }),
  codeReleaseHistory: defineEndpoint<typeof codeReleaseHistoryQuerySchema, typeof codeReleaseHistorySchema, "code">({
    id: "code-release-history",
    path: "/api/v1/drift/codes/:code/history",
    query: codeReleaseHistoryQuerySchema,
    response: codeReleaseHistorySchema,
  }),
} as const;
