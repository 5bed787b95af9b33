import { z } from "zod";
import { dashboardQuerySchema, windowSchema } from "./filters";
import { outcomePointSchema } from "./outcome-point";
import { toolRowSchema } from "./tools";

// One tool's page, apart from the Tools list's contract: every page's filter bar reads that list (its
// facets), and only the tool page needs this one.

/** The most codes the tool page's code chart names, and releases its table lists. */
export const CODE_SERIES_MAX = 50;
export const TOOL_RELEASES_MAX = 100;

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
