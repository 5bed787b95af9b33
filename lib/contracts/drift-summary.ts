import { z } from "zod";

// Apart from ./drift.ts: the drift badges on the Tools, Codes and Overview pages read the summary
// alone, without the findings' contract.

/**
 * What kind of change a drift finding reports. `behaviour`: how the code's calls behave on retry
 * (recovery, retry_after); `model_behaviour`: how often the model corrects itself after being told
 * the code (docs/after-told.md) dropped.
 */
export const DRIFT_KINDS = ["repurposed", "behaviour", "model_behaviour", "removed", "added", "renamed"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** Most severe first; the page ranks findings in this order. */
export const DRIFT_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type DriftSeverity = (typeof DRIFT_SEVERITIES)[number];

const countSchema = z.number().int().nonnegative();
const projectParam = z.string().trim().min(1).max(200).default("default");

/** `GET /api/v1/drift/summary`: which codes and tools have findings, for badges on other pages. */
export const driftSummaryQuerySchema = z.object({ project: projectParam });
export const driftSummaryEntrySchema = z.object({
  code: z.string(),
  tool: z.string(),
  findings: countSchema,
  severity: z.enum(DRIFT_SEVERITIES),
  kinds: z.array(z.enum(DRIFT_KINDS)),
});
export type DriftSummaryEntry = z.infer<typeof driftSummaryEntrySchema>;
export const driftSummaryResponseSchema = z.object({ entries: z.array(driftSummaryEntrySchema), upToDate: z.boolean() });
export type DriftSummaryResponse = z.infer<typeof driftSummaryResponseSchema>;
