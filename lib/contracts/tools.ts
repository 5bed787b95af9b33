import { z } from "zod";
import { pageInfoSchema, pageQuerySchema } from "./paging";
import { dashboardQuerySchema, sortDirSchema, windowSchema } from "./filters";
import { outcomePointSchema } from "./outcome-point";

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
/** The most codes the tool page's code chart names, and releases its table lists. */
export const CODE_SERIES_MAX = 50;
export const TOOL_RELEASES_MAX = 100;
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

/** `compare=previous` adds the tool's figures over the window of equal length just before this one. */
export const toolDetailQuerySchema = dashboardQuerySchema.extend({ tool: z.string().min(1).max(512), compare: z.enum(["previous"]).optional() });

export const codePointSchema = z.object({ t: z.number(), code: z.string(), failures: z.number() });
export const delayBucketSchema = z.object({ bucketMs: z.number(), retryAfter: z.number(), backoff: z.number() });

export const toolDetailSchema = z.object({
  project: z.string(),
  window: windowSchema,
  summary: toolRowSchema,
  /** With `compare=previous`: the summary over the previous window of equal length, same filters. */
  previous: toolRowSchema.nullable().default(null),
  outcomeSeries: z.array(outcomePointSchema),
  /** Failures per bucket of the {@link CODE_SERIES_MAX} codes with most failures in the window. */
  codeSeries: z.array(codePointSchema),
  /** Failures per bucket of every other code (a tool can have thousands), so the stack still adds up. */
  codeSeriesRest: z.array(z.object({ t: z.number(), failures: z.number() })).default([]),
  outcomes: z.array(z.object({ outcome: z.string(), attempts: z.number() })),
  /** Exact from rollups: calls with one attempt, calls with two or more, and calls per attempt count. */
  attemptsPerCall: z.object({
    single: z.number(),
    retried: z.number(),
    /** 1 + retry attempts / retried calls: how long a retried call ran on average. */
    meanAttemptsWhenRetried: z.number().nullable(),
    maxAttempts: z.number(),
    /** Calls that needed exactly `attempts` attempts: spans(k) − spans(k+1) from the attempt counts. */
    histogram: z.array(z.object({ attempts: z.number(), calls: z.number() })),
  }),
  delayHistogram: z.array(delayBucketSchema),
  /** Per code: mean retry_after asked against mean backoff waited, and failed-closed attempts. */
  delaysByCode: z.array(
    z.object({
      code: z.string(),
      retryAfterMeanMs: z.number().nullable(),
      backoffMeanMs: z.number().nullable(),
      retryAfterCount: z.number(),
      backoffCount: z.number(),
      failedClosed: z.number(),
    }),
  ),
  /** The {@link TOOL_RELEASES_MAX} releases seen last; `releaseCount` counts them all. */
  releases: z.array(z.object({ release: z.string(), attempts: z.number(), failures: z.number(), firstSeen: z.number(), lastSeen: z.number() })),
  releaseCount: z.number().int().default(0),
  recentFailingRuns: z.array(
    z.object({
      runId: z.string(),
      lastAt: z.number(),
      failedAttempts: z.number(),
      codes: z.array(z.string()),
      outcomes: z.array(z.string()),
      maxAttempt: z.number().nullable(),
    }),
  ),
});
export type ToolDetail = z.infer<typeof toolDetailSchema>;
