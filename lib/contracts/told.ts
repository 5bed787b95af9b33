import { z } from "zod";
import { dashboardQuerySchema, RANGE_KEYS, windowSchema, type RangeKey } from "./filters";
import { TOLD_STEPS } from "./told-step";

export { codeToldSchema, MIN_TOLD_SAMPLE, RECOVERY_STEPS, TOLD_STEPS, timelineToldStepSchema, type CodeTold, type TimelineToldStep, type ToldStep } from "./told-step";


/** The run's state after the error: its final state, or `open` while it has not ended. */
export const TOLD_RUN_STATES = ["completed", "failed", "cancelled", "open"] as const;
export type ToldRunState = (typeof TOLD_RUN_STATES)[number];


const countSchema = z.number().int().nonnegative();
const rateSchema = z.number().min(0).max(1).nullable();
const optionalText = z
  .string()
  .trim()
  .max(512)
  .optional()
  .transform((v) => (v ? v : undefined));

/** `GET /api/v1/told` query string: the project and what to narrow to (any combination; none = the whole project). */
export const toldQuerySchema = z.object({
  project: z.string().trim().min(1).max(200).default("default"),
  code: optionalText,
  tool: optionalText,
  release: optionalText,
  /** The page's time range (or `from`/`to`): errors told in it. Neither given: all retained history. */
  range: z.enum(RANGE_KEYS as [RangeKey, ...RangeKey[]]).optional(),
  from: dashboardQuerySchema.shape.from,
  to: dashboardQuerySchema.shape.to,
});
export type ToldQuery = z.infer<typeof toldQuerySchema>;

/** How many surfaced errors ended in each step; every step is listed, zeros included. */
export const toldStepCountsSchema = z.array(z.object({ step: z.enum(TOLD_STEPS), errors: countSchema }));
export type ToldStepCounts = z.infer<typeof toldStepCountsSchema>;

/** The rates of a set of surfaced errors (lib/told/rates.ts defines each). */
export const toldRatesSchema = z.object({
  /** Every surfaced error, pending ones included. */
  surfaced: countSchema,
  /** Errors whose next step is decided (all but `pending`): the denominator of the rates. */
  decided: countSchema,
  /** `recovered` + `replaced`. */
  recovered: countSchema,
  /** recovered / decided; null when nothing is decided. */
  selfCorrection: rateSchema,
  repeated: countSchema,
  /** Decided errors whose repeat could be judged (decided − unknown): the repeat rate's denominator. */
  repeatJudged: countSchema,
  /** repeated / repeatJudged; null when nothing could be judged. */
  repeatRate: rateSchema,
  /** Median number of the model's calls until the recovering one (1 = the first try worked); null without recoveries. */
  medianCallsUntilRecovery: z.number().nullable(),
  /** Decided errors by the state their run ended in. */
  finalStates: z.array(z.object({ state: z.enum(TOLD_RUN_STATES), errors: countSchema })),
});
export type ToldRates = z.infer<typeof toldRatesSchema>;

/** One surfaced error as an example: what the model was told and what it did next. */
export const toldSampleSchema = z.object({
  runId: z.string(),
  callId: z.string(),
  tool: z.string(),
  code: z.string(),
  /** The exact (scrubbed) text the model received. */
  told: z.string().nullable(),
  occurredAt: z.number().int(),
  step: z.enum(TOLD_STEPS),
  /** The call that decided the step (the recovering call, or the call that repeated or failed again); null when none did. */
  next: z.object({ callId: z.string(), tool: z.string(), outcome: z.string().nullable(), code: z.string().nullable() }).nullable(),
});
export type ToldSample = z.infer<typeof toldSampleSchema>;

/** One wording (told-text shape) of a code, with its rates and a few example runs. */
export const toldWordingSchema = z.object({
  /** The told text with numbers, ids, quoted values and the code itself masked (lib/drift/told-shape.ts). */
  shape: z.string(),
  codes: z.array(z.string()),
  steps: toldStepCountsSchema,
  rates: toldRatesSchema,
  samples: z.array(toldSampleSchema),
});
export type ToldWording = z.infer<typeof toldWordingSchema>;

/** The rates of one release (the agent's release the errors were recorded under). */
export const toldReleaseSchema = z.object({
  release: z.string(),
  firstSeen: z.number().int(),
  steps: toldStepCountsSchema,
  rates: toldRatesSchema,
});

/** The rates of one (code, tool) pair within the filter. */
export const toldGroupSchema = z.object({ code: z.string(), tool: z.string(), steps: toldStepCountsSchema, rates: toldRatesSchema });

/** `GET /api/v1/told`: what models did after being told an error, all retained history (not windowed). */
export const toldAnswerSchema = z.object({
  project: z.string(),
  filter: z.object({ code: z.string().nullable(), tool: z.string().nullable(), release: z.string().nullable() }),
  minSample: z.number().int(),
  steps: toldStepCountsSchema,
  rates: toldRatesSchema,
  /** Oldest first: SemVer order when every label is a version, else order of first sighting. */
  releases: z.array(toldReleaseSchema),
  releaseOrder: z.enum(["semver", "first_seen"]),
  /** Best recovery first (rate, then decided errors); wordings below `minSample` decided errors rank after the rest. */
  wordings: z.array(toldWordingSchema),
  /** How many wordings there are in all (`wordings` holds the first {@link TOLD_WORDINGS_MAX}). */
  wordingCount: countSchema,
  groups: z.array(toldGroupSchema),
  /** The window the errors were told in; null for all retained history. */
  window: windowSchema.nullable(),
});
export type ToldAnswer = z.infer<typeof toldAnswerSchema>;

/** The most wordings one answer lists. */
export const TOLD_WORDINGS_MAX = 20;
/** Example runs per wording. */
export const TOLD_SAMPLES_PER_WORDING = 3;


