import { z } from "zod";
import { codeSchema, idSchema, nameSchema } from "./primitives";
import { MAX_VARIANTS, wordingVariantSchema } from "./wordings";

/** An experiment's life: drafted, running (its wordings are delivered), then stopped with or without a winner. */
export const EXPERIMENT_STATES = ["draft", "running", "stopped_winner", "stopped_inconclusive"] as const;
export type ExperimentState = (typeof EXPERIMENT_STATES)[number];

/** The false-positive bound of every verdict (docs/experiments.md). */
export const EXPERIMENT_ALPHA = 0.05;

/**
 * How much worse than the control a challenger may be on a guard metric before the experiment is
 * stopped: absolute increases of the repeat rate and of the run-failed rate (shares), and of the
 * mean number of calls until recovery.
 */
export const guardBoundsSchema = z.object({
  repeatRate: z.number().min(0).max(1).default(0.1),
  runFailedRate: z.number().min(0).max(1).default(0.1),
  callsUntilRecovery: z.number().min(0).max(100).default(1),
});
export type GuardBounds = z.infer<typeof guardBoundsSchema>;
export const GUARD_METRICS = ["repeatRate", "runFailedRate", "callsUntilRecovery"] as const;
export type GuardMetric = (typeof GUARD_METRICS)[number];

const EXPERIMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const experimentIdSchema = z.string().regex(EXPERIMENT_ID, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");

/** `POST /api/v1/projects/:project/experiments`: a draft. The first variant is the control. */
export const experimentCreateSchema = z
  .object({
    id: experimentIdSchema,
    code: codeSchema,
    tool: nameSchema.nullish().transform((t) => t ?? null),
    variants: z.array(wordingVariantSchema.extend({ id: experimentIdSchema })).min(2, "needs at least two wordings").max(MAX_VARIANTS),
    guards: guardBoundsSchema.default({ repeatRate: 0.1, runFailedRate: 0.1, callsUntilRecovery: 1 }),
  })
  .superRefine((e, ctx) => {
    if (e.variants.reduce((s, v) => s + v.weight, 0) !== 100) ctx.addIssue({ code: "custom", path: ["variants"], message: "the weights must add up to 100" });
    const ids = e.variants.map((v) => v.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", path: ["variants"], message: "variant ids must differ" });
  });
export type ExperimentCreate = z.input<typeof experimentCreateSchema>;

/** `POST /api/v1/experiments/:id/…`-style transitions, as one body: start, stop, promote a variant. */
export const experimentTransitionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("start") }),
  z.object({ action: z.literal("stop") }),
  z.object({ action: z.literal("promote"), variant: experimentIdSchema }),
]);
export type ExperimentTransition = z.infer<typeof experimentTransitionSchema>;

const interval = z.tuple([z.number(), z.number()]);
/** A value with its always-valid interval; the interval is null while the data cannot bound it (fewer than two recoveries). */
const estimate = z.object({ value: z.number(), interval: interval.nullable() }).nullable();

/** One variant's counts and metrics, from the stored records. */
export const variantStatsSchema = z.object({
  id: z.string(),
  /** Errors of this variant told to the model (surfaced), decided or not. */
  exposures: z.number().int().nonnegative(),
  decided: z.number().int().nonnegative(),
  recovered: z.number().int().nonnegative(),
  repeated: z.number().int().nonnegative(),
  /** Decided errors whose repeat could be judged (not `unknown`). */
  repeatJudged: z.number().int().nonnegative(),
  runsFailed: z.number().int().nonnegative(),
  /** Recoveries with their calls counted. */
  recoveries: z.number().int().nonnegative(),
  callsUntilRecoveryTotal: z.number().int().nonnegative(),
  /** Self-correction (recovered or replaced, of decided) with its always-valid interval. */
  selfCorrection: estimate,
  repeatRate: estimate,
  runFailedRate: estimate,
  callsUntilRecovery: estimate,
});
export type VariantStats = z.infer<typeof variantStatsSchema>;

/** A challenger against the control on one metric. */
export const comparisonSchema = z.object({
  variant: z.string(),
  metric: z.enum(["selfCorrection", ...GUARD_METRICS]),
  /** Challenger minus control, with its always-valid interval. */
  difference: z.number(),
  interval,
  pValue: z.number(),
  rejected: z.boolean(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** The verdict at this look (docs/experiments.md). */
export const verdictSchema = z.object({
  kind: z.enum(["collecting", "undecided", "winner", "guard_tripped"]),
  /** The winning variant (`winner`), or the challenger that tripped a guard. */
  variant: z.string().nullable(),
  metric: z.enum(["selfCorrection", ...GUARD_METRICS]).nullable(),
  message: z.string(),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const experimentSchema = z.object({
  id: z.string(),
  project: z.string(),
  code: z.string(),
  tool: z.string().nullable(),
  state: z.enum(EXPERIMENT_STATES),
  variants: z.array(wordingVariantSchema),
  guards: guardBoundsSchema,
  winner: z.string().nullable(),
  stopReason: z.string().nullable(),
  createdAt: z.number().int(),
  startedAt: z.number().int().nullable(),
  stoppedAt: z.number().int().nullable(),
});
export type Experiment = z.infer<typeof experimentSchema>;

/** `GET /api/v1/experiments?project=`: the project's experiments, newest first. */
export const experimentsAnswerSchema = z.object({ experiments: z.array(experimentSchema) });
export type ExperimentsAnswer = z.infer<typeof experimentsAnswerSchema>;

/** `GET /api/v1/experiments/detail?project=&id=`: one experiment with its per-variant results and verdict. */
export const experimentDetailSchema = z.object({
  experiment: experimentSchema,
  stats: z.array(variantStatsSchema),
  comparisons: z.array(comparisonSchema),
  verdict: verdictSchema,
  alpha: z.number(),
});
export type ExperimentDetail = z.infer<typeof experimentDetailSchema>;

export const experimentsQuerySchema = z.object({ project: idSchema });
export const experimentDetailQuerySchema = z.object({ project: idSchema, id: experimentIdSchema });
