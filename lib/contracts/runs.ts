import { z } from "zod";
import { RUN_STATES } from "./enums";
import { textQuerySchema } from "./text-query";

/** Filter value meaning "the run record never arrived" (only spans or tool errors did). */
export const RUN_RECORD_MISSING = "missing" as const;
export const RUN_STATE_FILTERS = [...RUN_STATES, RUN_RECORD_MISSING] as const;

export const RUNS_PAGE_DEFAULT = 50;
export const RUNS_PAGE_MAX = 200;

/**
 * Orders of the runs list. `start` is the first attempt's start (the list's time axis); `duration`
 * is the run record's end − start, else the last attempt's end − the first attempt's start; runs
 * whose duration is unknown (still running) come last in both directions. Ties break on the run id.
 */
export const RUN_SORTS = ["start", "duration", "attempts", "retries", "errors", "failedAttempts", "toolCalls"] as const;
export type RunSort = (typeof RUN_SORTS)[number];

const optionalText = z.string().trim().min(1).max(200).optional();
// The largest instant a Date can hold; a larger number is out of PostgreSQL's bigint range (a 500, not a 400).
const epochMs = z.coerce.number().int().nonnegative().max(8_640_000_000_000).optional();

/**
 * `GET /api/v1/runs` query string. `cursor` is the opaque `nextCursor` of the previous page, valid
 * for the same `sort` and `dir` (keyset pagination on (sort value, run id)). `tool` and `code` match
 * any tool or code containing the text, case-insensitively (`rate_limit` finds `rate_limited`);
 * `agent`, `release` and `environment` match exactly.
 */
export const listRunsQuerySchema = z.object({
  project: z.string().min(1).max(200).default("default"),
  agent: optionalText,
  release: optionalText,
  environment: optionalText,
  state: z.enum(RUN_STATE_FILTERS).optional(),
  /** Runs whose first attempt started at or after `from` and before `to` (epoch ms). */
  from: epochMs,
  to: epochMs,
  /** "1": only runs with at least one failed attempt or final tool error. */
  hasErrors: z.enum(["1", "0"]).optional(),
  /** "1": only runs whose model turns left a tool call without a result (the runtime's count, see docs/after-told.md). */
  unanswered: z.enum(["1"]).optional(),
  tool: optionalText,
  code: optionalText,
  /** Full-text query (docs/search.md): runs with an attempt error message or told text matching it. */
  text: textQuerySchema.optional(),
  sort: z.enum(RUN_SORTS).default("start"),
  dir: z.enum(["asc", "desc"]).default("desc"),
  limit: z.coerce.number().int().min(1).max(RUNS_PAGE_MAX).default(RUNS_PAGE_DEFAULT),
  cursor: z
    .string()
    .regex(/^-?\d+:.+$/, "must be a nextCursor value")
    .max(400)
    .optional(),
});
export type ListRunsQuery = z.infer<typeof listRunsQuerySchema>;

/** One row of the runs list: `run_stats` counters, and the run record's fields when it arrived. */
export const runListItemSchema = z.object({
  runId: z.string(),
  /** False when only spans or tool errors of the run arrived. */
  hasRunRecord: z.boolean(),
  /** Null when unknown: the record is missing, or only records without it (a run end) arrived. */
  agent: z.string().nullable(),
  release: z.string().nullable(),
  state: z.string().nullable(),
  /**
   * The run record's start; null when the record arrived without one (only the run's end so far).
   * Without a run record, the first attempt's start.
   */
  startedAt: z.number().nullable(),
  /** From the run record when it has one, else the last attempt's end. */
  endedAt: z.number().nullable(),
  /** Null while the run is running or when its start or end is unknown. */
  durationMs: z.number().nullable(),
  toolCalls: z.number(),
  attempts: z.number(),
  retries: z.number(),
  failedAttempts: z.number(),
  errors: z.number(),
  declined: z.number(),
  refused: z.number(),
  /** Tool calls the model asked for that got no result, as the runtime counted them; null when it did not track turns. */
  unansweredToolUses: z.number().nullable(),
});
export type RunListItem = z.infer<typeof runListItemSchema>;

/**
 * The runs list counts its matches up to this many; beyond, it says "more than". The count probes
 * each run as the page does (a busy code: one index probe per run), so the bound keeps it cheap.
 */
export const RUNS_MATCHED_MAX = 1_000;

export const runListResponseSchema = z.object({
  runs: z.array(runListItemSchema),
  nextCursor: z.string().nullable(),
  /** Runs matching the filters (every page, not this one), at most {@link RUNS_MATCHED_MAX}. */
  matched: z.number().int(),
  /** True when more than {@link RUNS_MATCHED_MAX} runs matched. */
  matchedCapped: z.boolean(),
});
export type RunListResponse = z.infer<typeof runListResponseSchema>;

/** `GET /api/v1/run-facets`: the values the runs list's text filters can take, for suggestions. */
export const runFacetsQuerySchema = z.object({ project: z.string().min(1).max(200).default("default") });
export const RUN_FACETS_MAX = 200;
export const runFacetsSchema = z.object({
  /** Each sorted, at most {@link RUN_FACETS_MAX} values; `truncated` says when a list was cut. */
  agents: z.array(z.string()),
  releases: z.array(z.string()),
  environments: z.array(z.string()),
  tools: z.array(z.string()),
  codes: z.array(z.string()),
  truncated: z.boolean(),
  /** Runs of the project that left at least one tool call unanswered. */
  unansweredRuns: z.number().int().nonnegative(),
});
export type RunFacets = z.infer<typeof runFacetsSchema>;

export { A, type AttemptTuple, attemptTupleSchema, type CallError, callErrorSchema, type RunRecordView, runRecordViewSchema, type RunPage, runPageSchema, RUN_PAGE_ATTEMPTS, type RunTimeline, runTimelineQuerySchema, runTimelineSchema, type TimelineCall, timelineCallSchema } from "./run-timeline";
