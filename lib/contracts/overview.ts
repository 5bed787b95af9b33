import { z } from "zod";
import { dashboardQuerySchema, windowSchema } from "./filters";
import { outcomePointSchema } from "./outcome-point";

/** `compare=previous` adds the totals of the window of equal length just before this one. */
export const overviewQuerySchema = dashboardQuerySchema.extend({ compare: z.enum(["previous"]).optional() });

/** Attempt counts over the window; `failures` are attempts whose outcome is not `ok`. */
export const overviewTotalsSchema = z.object({
  attempts: z.number(),
  /** Attempts numbered 1, plus attempts without a number (each counted as a call). */
  calls: z.number(),
  /** Attempts whose source sent no attempt number (see the conformance view). */
  unnumbered: z.number(),
  failures: z.number(),
  /** failures / attempts, null when there were no attempts. */
  failureRate: z.number().nullable(),
  declined: z.number(),
  refused: z.number(),
  /** Attempts after the first: the retries the runtime spent. */
  retries: z.number(),
  /** Calls that needed at least one retry. */
  retriedCalls: z.number(),
  /** Attempts whose decision was failed_closed (retry_after beyond the cap or the deadline). */
  failedClosed: z.number(),
  backoffWaitedMs: z.number(),
});

export { outcomePointSchema };

export const topCodeSchema = z.object({
  code: z.string(),
  failures: z.number(),
  declined: z.number(),
  refused: z.number(),
  tools: z.number(),
});

export const topToolSchema = z.object({
  tool: z.string(),
  attempts: z.number(),
  failures: z.number(),
  failureRate: z.number().nullable(),
  declined: z.number(),
  refused: z.number(),
});

export const overviewSchema = z.object({
  project: z.string(),
  window: windowSchema,
  /** Whether the project has ever received a span (false shows the first-run guide). */
  hasData: z.boolean(),
  totals: overviewTotalsSchema,
  series: z.array(outcomePointSchema),
  topCodes: z.array(topCodeSchema),
  topTools: z.array(topToolSchema),
  /** Releases whose first span (ever, to the hour) falls inside the window: markers on time charts. */
  releases: z.array(z.object({ release: z.string(), firstSeen: z.number() })).default([]),
  /** With `compare=previous`: the totals of the previous window of equal length, same filters. */
  previous: overviewTotalsSchema.extend({ failureRate: z.number().nullable() }).nullable().default(null),
});
export type Overview = z.infer<typeof overviewSchema>;
export type OverviewTotals = z.infer<typeof overviewTotalsSchema>;
export type OutcomePoint = z.infer<typeof outcomePointSchema>;
