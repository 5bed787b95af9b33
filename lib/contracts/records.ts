import { z } from "zod";
import { ARGS_HASH_PATTERN } from "./args-hash";
import { DECISIONS, ERROR_CLASSES, OUTCOMES, RUN_STATES } from "./enums";
import { LIMITS } from "./limits";
import {
  attemptSchema,
  codeSchema,
  delayMsSchema,
  idSchema,
  nameSchema,
  textSchema,
  timeSchema,
  versionSchema,
} from "./primitives";

/** Fields that any record may carry to override the batch's `resource` block. */
const overridable = {
  service: nameSchema.optional(),
  release: versionSchema.optional(),
  environment: nameSchema.optional(),
};

const endsAfterStart = (r: { started_at: number; ended_at?: number | null | undefined }) =>
  r.ended_at == null || r.ended_at >= r.started_at;
const endsAfterStartIssue = { message: "must not be before started_at", path: ["ended_at"] };

/** One agent run. */
export const runRecordSchema = z
  .object({
    type: z.literal("run"),
    id: idSchema,
    run_id: idSchema,
    agent: nameSchema,
    agent_version: versionSchema.optional(),
    started_at: timeSchema,
    ended_at: timeSchema.nullish(),
    state: z.enum(RUN_STATES),
    /** Absolute deadline of the run, when the runtime had one. */
    deadline_at: timeSchema.nullish(),
    /** The per-tool attempt budget the run loop enforced (`maxToolAttempts`). */
    max_tool_attempts: attemptSchema.nullish(),
    error: textSchema.nullish(),
    /**
     * Tool calls the model asked for in this run's turns that never got a result (the runtime's
     * `modelTurn` bookkeeping); absent when the runtime did not track the turns.
     */
    unanswered_tool_uses: z.number().int().min(0).max(LIMITS.maxUnansweredToolUses).nullish(),
    ...overridable,
  })
  .refine(endsAfterStart, endsAfterStartIssue);
export type RunRecord = z.infer<typeof runRecordSchema>;

/** One attempt of one tool call. */
export const toolCallSpanRecordSchema = z
  .object({
    type: z.literal("tool_call_span"),
    id: idSchema,
    trace_id: idSchema.nullish(),
    parent_span_id: idSchema.nullish(),
    run_id: idSchema,
    call_id: idSchema,
    tool: nameSchema,
    tool_version: versionSchema.nullish(),
    attempt: attemptSchema,
    started_at: timeSchema,
    ended_at: timeSchema,
    outcome: z.enum(OUTCOMES),
    code: codeSchema.nullish(),
    error_class: z.enum(ERROR_CLASSES).nullish(),
    retryable: z.boolean().nullish(),
    retry_after_ms: delayMsSchema.nullish(),
    /** The wait the runtime scheduled after this attempt, before the next one. */
    backoff_ms: delayMsSchema.nullish(),
    /** What the loop decided after this attempt, when it was an error. */
    decision: z.enum(DECISIONS).nullish(),
    permitted: z.boolean().nullish(),
    abandoned: z.boolean().nullish(),
    message: textSchema.nullish(),
    /**
     * A stable hash of the call's canonicalised arguments (lib/contracts/args-hash.ts), the same on
     * every attempt of the call. The arguments themselves are never sent.
     */
    args_hash: z.string().regex(ARGS_HASH_PATTERN, "must be 8 to 64 lowercase hex characters").nullish(),
    /**
     * The `call_id` of the earlier call of this run whose surfaced error this call answers, when the
     * runtime knows it; `null` when it knows the call answers none; absent when it does not know.
     */
    after_error: idSchema.nullish(),
    ...overridable,
  })
  .refine(endsAfterStart, endsAfterStartIssue);
export type ToolCallSpanRecord = z.infer<typeof toolCallSpanRecordSchema>;

/** The final error of one tool call: what the loop decided and what the model was told. */
export const toolErrorRecordSchema = z.object({
  type: z.literal("tool_error"),
  id: idSchema,
  run_id: idSchema,
  call_id: idSchema,
  tool: nameSchema,
  tool_version: versionSchema.nullish(),
  code: codeSchema,
  error_class: z.enum(ERROR_CLASSES),
  retryable: z.boolean(),
  attempts: attemptSchema,
  decision: z.enum(DECISIONS),
  /** What the model received, scrubbed; `null` when it was told nothing (the run failed or ended first). */
  told: textSchema.nullable(),
  occurred_at: timeSchema,
  /**
   * The wording experiment whose variant the model was told (docs/experiments.md); absent when the
   * told text came from no running experiment. Never changes code, class, retryable or decision.
   */
  experiment: idSchema.optional(),
  /** The variant id of `experiment` that this run was assigned; present exactly when `experiment` is. */
  variant: idSchema.optional(),
  ...overridable,
}).refine((r) => (r.experiment === undefined) === (r.variant === undefined), {
  message: "experiment and variant go together",
  path: ["variant"],
});
export type ToolErrorRecord = z.infer<typeof toolErrorRecordSchema>;

/** Any native record, told apart by `type`. */
export const ingestRecordSchema = z.discriminatedUnion("type", [
  runRecordSchema,
  toolCallSpanRecordSchema,
  toolErrorRecordSchema,
]);
export type IngestRecord = z.infer<typeof ingestRecordSchema>;
