import { driftSummaryQuerySchema, driftSummaryResponseSchema } from "@/lib/contracts/drift-summary";
import { defineEndpoint } from "../endpoint";

/** Which codes and tools have drift findings: the badges on other pages. */
export const driftSummaryEndpoints = {
  driftSummary: defineEndpoint({ id: "drift-summary", path: "/api/v1/drift/summary", query: driftSummaryQuerySchema, response: driftSummaryResponseSchema }),
} as const;
