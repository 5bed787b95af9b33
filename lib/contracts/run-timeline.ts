import { z } from "zod";
import { codeSourceSchema } from "./code-source";
import { timelineToldStepSchema } from "./told-step";

// Apart from ./runs.ts (the list, its filters and facets): the run page reads one run alone.

/** Attempts in one page of a run's timeline unless `limit` says otherwise, and the most `limit` may ask. */
export const RUN_PAGE_ATTEMPTS = 1000;
export const RUN_PAGE_MAX_ATTEMPTS = 5000;

/** `GET /api/v1/runs/:runId` query string: the run's first page, or the one `after` names. */
export const runTimelineQuerySchema = z.object({
  project: z.string().min(1).max(200).default("default"),
  /** Attempts in the page (the last call of a page may continue on the next). */
  limit: z.coerce.number().int().min(1).max(RUN_PAGE_MAX_ATTEMPTS).default(RUN_PAGE_ATTEMPTS),
  /** The `page.next` of the previous page. */
  after: z.string().regex(/^\d{1,16}\.-?\d{1,7}\.\d{1,16}$/).optional(),
});

/** The stored run record; agent and start are null when only records not carrying them arrived. */
export const runRecordViewSchema = z.object({
  agent: z.string().nullable(),
  release: z.string().nullable(),
  service: z.string().nullable(),
  environment: z.string().nullable(),
  sdkName: z.string().nullable(),
  sdkVersion: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  state: z.string(),
  deadlineAt: z.number().nullable(),
  maxToolAttempts: z.number().nullable(),
  error: z.string().nullable(),
  /** Tool calls the model asked for that got no result; null when the runtime did not track turns. */
  unansweredToolUses: z.number().nullable(),
  /** The run's agent span's OpenTelemetry trace and span ids (OTLP ingest); null when the source has none. */
  traceId: z.string().nullable(),
  spanId: z.string().nullable(),
});
export type RunRecordView = z.infer<typeof runRecordViewSchema>;

/**
 * One attempt, as a tuple to keep a 12,000-attempt run small on the wire:
 * [spanId, attempt, start, end, outcome, code, errorClass, retryable, retryAfterMs, backoffMs,
 *  decision, message, traceId]. `start`/`end` are ms after the answer's `t0`; outcome, code,
 * errorClass, decision and traceId are indexes into the answer's `strings`. Null means the source did not say.
 */
export const attemptTupleSchema = z.tuple([
  z.string(),
  z.number().nullable(),
  z.number(),
  z.number(),
  z.number().int().nullable(),
  z.number().int().nullable(),
  z.number().int().nullable(),
  z.boolean().nullable(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().int().nullable(),
  z.string().nullable(),
  z.number().int().nullable(),
]);
export type AttemptTuple = z.infer<typeof attemptTupleSchema>;

/** Indexes into {@link AttemptTuple}. */
export const A = {
  spanId: 0,
  attempt: 1,
  startedAt: 2,
  endedAt: 3,
  outcome: 4,
  code: 5,
  errorClass: 6,
  retryable: 7,
  retryAfterMs: 8,
  backoffMs: 9,
  decision: 10,
  message: 11,
  traceId: 12,
} as const;

/** The final error of a call (`tool_errors`), with exactly what the model was told. */
export const callErrorSchema = z.object({
  code: z.string().nullable(),
  errorClass: z.string().nullable(),
  retryable: z.boolean().nullable(),
  attempts: z.number().nullable(),
  decision: z.string().nullable(),
  /** `null` is "nothing was told" for sources that record the told text, "not recorded" for the others. */
  told: z.string().nullable(),
  occurredAt: z.number(),
  /** The format the error came from (`native`, `otlp`, `adk_run_event`, …). */
  source: z.string(),
  /** Fields Faultline worked out from the rest of the record rather than read from it. */
  derived: z.array(z.string()),
});
export type CallError = z.infer<typeof callErrorSchema>;

export const timelineCallSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  /** In the order they were stored by start time; the layout reorders nothing it cannot justify. */
  attempts: z.array(attemptTupleSchema),
  /** The call's last recorded final error, when one arrived. */
  error: callErrorSchema.nullable(),
});
export type TimelineCall = z.infer<typeof timelineCallSchema>;

/** Where a page of a run's timeline sits in the whole run. */
export const runPageSchema = z.object({
  /** The `after` of the next page; null on the last. */
  next: z.string().nullable(),
  /** The run's attempts and calls over all its pages: said by the first page, null on the others. */
  totalAttempts: z.number().nullable(),
  totalCalls: z.number().nullable(),
});
export type RunPage = z.infer<typeof runPageSchema>;

/**
 * `GET /api/v1/runs/:runId`: one page of the run, at most `limit` attempts in start order. A page
 * holds its own calls' final errors, told steps and rule codes; calls known only from a final error
 * come with the last page. Each page is self-contained (its own `t0` and `strings`).
 */
export const runTimelineSchema = z.object({
  runId: z.string(),
  /** Epoch ms that attempt times are relative to (the earliest attempt start). */
  t0: z.number(),
  /** Dictionary of the attempts' outcome, code, errorClass and decision values. */
  strings: z.array(z.string()),
  /** Null when the run record never arrived. */
  run: runRecordViewSchema.nullable(),
  /** The page's calls in order of their first attempt's start (calls known only from a tool error come last). */
  calls: z.array(timelineCallSchema),
  /** What came of each error surfaced to the model (docs/after-told.md), in the order they were surfaced. */
  toldSteps: z.array(timelineToldStepSchema),
  /** By span id, the attempts whose code a classification rule set (docs/classification.md); any other code is the emitter's. */
  codedBy: z.record(z.string(), codeSourceSchema),
  page: runPageSchema,
});
export type RunTimeline = z.infer<typeof runTimelineSchema>;
