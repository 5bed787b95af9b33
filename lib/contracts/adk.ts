import { z } from "zod";
import { formatIssues, resourceSchema, sizeRejection, type Rejection } from "./batch";
import { LIMITS, MAX_FUTURE_SKEW_MS, MIN_TIME_MS } from "./limits";
import { attemptSchema, idSchema, nameSchema, textSchema, versionSchema } from "./primitives";

// The reference kit's own records (adk-tool-errors.md §4). Envelopes are checked as a whole; each
// record inside is checked alone so one bad record is rejected alone. Unknown fields are ignored.

/** Unix seconds as a float (the kit's clock), as integer epoch milliseconds. */
export const unixSecondsSchema = z
  .number({ error: "must be Unix seconds (a number)" })
  .refine(Number.isFinite, "must be a finite number")
  .transform((s, ctx) => {
    const ms = Math.round(s * 1000);
    if (ms < MIN_TIME_MS) ctx.addIssue({ code: "custom", message: "must not be before 2000-01-01 (Unix seconds, not milliseconds)" });
    else if (ms > Date.now() + MAX_FUTURE_SKEW_MS) ctx.addIssue({ code: "custom", message: "must not be more than one day in the future (Unix seconds, not milliseconds)" });
    return ms;
  });

const records = (name: string) =>
  z
    .array(z.unknown())
    .min(1, `must contain at least one ${name}`)
    .max(LIMITS.maxRecords, `must contain at most ${LIMITS.maxRecords} ${name}s`);

/** Every run state the kit knows (more than the native contract's). */
export const KIT_RUN_STATES = [
  "pending", "running", "suspended", "completed", "failed", "cancelled", "budget_exhausted", "max_iterations_exceeded", "loop_limit_exceeded",
] as const;

/** `POST /api/v1/ingest/adk/run-events`: the event list of one kit `Run`. */
export const adkRunEventsBatchSchema = z.object({
  resource: resourceSchema.optional(),
  run_id: idSchema,
  agent: nameSchema.optional(),
  agent_version: versionSchema.optional(),
  state: z.enum(KIT_RUN_STATES).optional(),
  events: records("event"),
});

/** One `RunEvent`; unknown kinds are tolerated (the kit adds kinds over time). */
export const adkRunEventSchema = z.object({
  kind: z.string().min(1).max(64),
  name: nameSchema.nullish(),
  detail: textSchema.nullish(),
  at: unixSecondsSchema.nullish(),
  usage: z.unknown().optional(),
});
export type AdkRunEvent = z.infer<typeof adkRunEventSchema>;

/** `POST /api/v1/ingest/adk/published-events`: published event envelopes. */
export const adkPublishedBatchSchema = z.object({ resource: resourceSchema.optional(), events: records("event") });

const envelopeText = z.string().max(LIMITS.maxIdLength).optional();

/** One published `EventEnvelope`. `event_id` is the kit's 25-character ULID-like id; any id is accepted. */
export const adkPublishedEventSchema = z.object({
  event_id: idSchema,
  type: z.string().min(1).max(64),
  schema_version: z.number().int().min(1).default(1),
  occurred_at: unixSecondsSchema,
  tenant: z.string().min(1).max(LIMITS.maxNameLength),
  user: z.string().max(LIMITS.maxNameLength).optional(),
  run_id: envelopeText,
  trace_id: envelopeText,
  span_id: envelopeText,
  correlation_id: envelopeText,
  causation_id: envelopeText,
  replay_id: envelopeText,
  attributes: z.record(z.string(), z.string().max(LIMITS.maxTextLength, "attribute values must be strings")).default({}),
});
export type AdkPublishedEvent = z.infer<typeof adkPublishedEventSchema>;

/** The published event types of the kit (`@0dfc569`). */
export const ADK_EVENT_TYPES = [
  "run_started", "run_completed", "run_failed", "run_cancelled", "tool_call_requested", "tool_call_completed",
  "approval_requested", "approval_decided", "budget_exceeded", "memory_erased", "events_replayed",
] as const;
/** The newest body version Faultline reads, per type (all kit types are at 1). */
export const ADK_SCHEMA_VERSION = 1;

/** `POST /api/v1/ingest/adk/spans`: `ToolCallSpan` observer records of one run. */
export const adkSpansBatchSchema = z.object({
  resource: resourceSchema.optional(),
  run_id: idSchema.optional(),
  agent: nameSchema.optional(),
  spans: records("span"),
});

/** The kit's `ToolCallSpan` outcomes; `error` is any other exception. */
export const ADK_SPAN_OUTCOMES = ["ok", "refused", "declined", "not_found", "timed_out", "error"] as const;

/**
 * One `ToolCallSpan` as JSON. The kit gives it no id, run, call or time; an observer may add `id`,
 * `at` (Unix seconds when the attempt ended), `call_id`, the run and its release. Without `id`
 * Faultline derives one from the content (`lib/ingest/kit-span-ids.ts`); without `at` the request's
 * arrival time stands in and the row says so (`derived`).
 */
export const adkToolCallSpanSchema = z.object({
  id: idSchema.optional(),
  run_id: idSchema.optional(),
  call_id: idSchema.optional(),
  /** The kit has no attempt number; an observer that counts attempts may add one. */
  attempt: attemptSchema.optional(),
  at: unixSecondsSchema.optional(),
  tool: nameSchema,
  agent: z.string().max(LIMITS.maxNameLength).default(""),
  /** The agent's release, when the observer adds it (the kit's `Run.agent_version`). */
  release: versionSchema.optional(),
  agent_version: versionSchema.optional(),
  permitted: z.boolean().default(true),
  outcome: z.enum(ADK_SPAN_OUTCOMES),
  duration_seconds: z.number().min(0).max(LIMITS.maxDurationMs / 1000).default(0),
  failure: z.string().max(LIMITS.maxNameLength).default(""),
  // A foreign exception's numeric `code` attribute lands here too.
  code: z.union([z.string().max(LIMITS.maxCodeLength), z.number().int()]).default(""),
  abandoned: z.boolean().default(false),
});
export type AdkToolCallSpan = z.infer<typeof adkToolCallSpanSchema>;

/** Validates one kit record alone, answering like the native batch (`invalid_record` with the fields). */
export function checkAdkRecord<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  index: number,
  idKey: string,
): { ok: true; record: z.output<S> } | { ok: false; rejection: Rejection } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, rejection: { index, id: null, code: "not_an_object", message: "record must be a JSON object" } };
  }
  const rawId = (raw as Record<string, unknown>)[idKey];
  const id = typeof rawId === "string" ? rawId.slice(0, LIMITS.maxIdLength) : null;
  const tooLarge = sizeRejection(raw as Record<string, unknown>, index, id);
  if (tooLarge) return { ok: false, rejection: tooLarge };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, rejection: { index, id, code: "invalid_record", message: formatIssues(parsed.error.issues) } };
  return { ok: true, record: parsed.data };
}
