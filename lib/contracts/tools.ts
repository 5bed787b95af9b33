import { z } from "zod";
import { pageInfoSchema, pageQuerySchema } from "./paging";
import { dashboardQuerySchema, sortDirSchema, windowSchema } from "./filters";

export const TOOL_SORTS = [
  "tool", "calls", "calls_not_ok", "call_not_ok_rate", "attempts", "failures", "failure_rate", "declined", "refused", "mean_attempts", "max_attempts",
  "retry_share", "retry_after_p50", "retry_after_p90", "backoff_p50", "backoff_p90", "failed_closed",
] as const;
export type ToolSort = (typeof TOOL_SORTS)[number];

export const toolsQuerySchema = dashboardQuerySchema.extend({
  sort: z.enum(TOOL_SORTS).default("failures"),
  dir: sortDirSchema,
  ...pageQuerySchema.shape,
  format: z.enum(["json", "csv", "ndjson"]).default("json"),
});
export type ToolsQuery = z.infer<typeof toolsQuerySchema>;

/** p50/p90 in ms: the upper bound of the histogram bucket holding the nearest-rank sample; null without samples. */
export const delayStatsSchema = z.object({ count: z.number(), p50: z.number().nullable(), p90: z.number().nullable() });
export type DelayStats = z.infer<typeof delayStatsSchema>;

export const toolRowSchema = z.object({
  tool: z.string(),
  attempts: z.number(),
  /** Attempts numbered 1 (one per call), plus attempts without a number, each counted as a call. */
  calls: z.number(),
  /** Attempts whose source sent no attempt number. */
  unnumbered: z.number(),
  /**
   * Calls whose last attempt was not ok: calls − ok attempts (an ok attempt ends its call, so each
   * ok attempt is one call that ended ok). Calls still retrying at the window's end count as not ok.
   */
  callsNotOk: z.number(),
  /** callsNotOk / calls: the per-call figure. */
  callNotOkRate: z.number().nullable(),
  /** Attempts whose outcome was not ok (any outcome but ok; unknown outcomes excluded). */
  failures: z.number(),
  /** failures / attempts: the per-attempt figure. */
  failureRate: z.number().nullable(),
  declined: z.number(),
  refused: z.number(),
  /** attempts / calls. */
  meanAttempts: z.number().nullable(),
  maxAttempts: z.number(),
  /** Calls with a second attempt / calls. */
  retryShare: z.number().nullable(),
  failedClosed: z.number(),
  topCodes: z.array(z.object({ code: z.string(), failures: z.number() })),
  retryAfter: delayStatsSchema,
  backoff: delayStatsSchema,
});
export type ToolRow = z.infer<typeof toolRowSchema>;

export const facetsSchema = z.object({
  codes: z.array(z.string()),
  errorClasses: z.array(z.string()),
  releases: z.array(z.string()),
  services: z.array(z.string()),
  environments: z.array(z.string()),
  outcomes: z.array(z.string()),
  /** The facets cut at {@link FACET_MAX} values (sorted; the rest is reachable through the URL or search). */
  truncated: z.array(z.string()),
  /** Attempts per value in the window (other filters aside), per facet; a value with none is absent. */
  counts: z.object({
    codes: z.record(z.string(), z.number()),
    errorClasses: z.record(z.string(), z.number()),
    releases: z.record(z.string(), z.number()),
    services: z.record(z.string(), z.number()),
    environments: z.record(z.string(), z.number()),
    outcomes: z.record(z.string(), z.number()),
  }),
});

/** The most values one facet lists. */
export const FACET_MAX = 200;
export type Facets = z.infer<typeof facetsSchema>;

export const toolsSchema = z.object({
  project: z.string(),
  window: windowSchema,
  /** Delay histograms have no outcome or class dimension: percentiles ignore those two filters. */
  delaysIgnoreFilters: z.array(z.string()),
  tools: z.array(toolRowSchema),
  page: pageInfoSchema,
  facets: facetsSchema,
});
export type ToolsAnswer = z.infer<typeof toolsSchema>;
