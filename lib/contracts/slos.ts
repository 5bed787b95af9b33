import { z } from "zod";

const projectSchema = z.string().min(1).max(100);

/** A tool name, or a glob over tool names where `*` stands for any characters (`search_*`). */
export const toolPatternSchema = z.string().trim().min(1).max(200);

/** SLO fields a person chooses; the server fills in id, project and times. */
const sloFields = {
  name: z.string().trim().min(1).max(200),
  /** The tools it covers: names or globs, matched case-sensitively, at least one. */
  tools: z.array(toolPatternSchema).min(1).max(20),
  /** The share of calls that must not end in an unrecovered failure, as a fraction (0.995 = 99.5 %). */
  objective: z.number().gt(0).lt(1),
  /** The rolling window the budget is counted over, in days. */
  windowDays: z.number().int().min(1).max(90),
  /** Count declines (the tool worked and said no) as bad calls; off by default. */
  countDeclines: z.boolean(),
  /** Count failures the model recovered from (a later call ended ok: recovered or replaced) as bad; off by default. */
  countRecovered: z.boolean(),
};

export const SLO_DEFAULTS = { windowDays: 28, countDeclines: false, countRecovered: false } as const;

export const sloSchema = z.object({ id: z.number().int(), project: z.string(), ...sloFields, createdAt: z.number(), updatedAt: z.number() });
export type Slo = z.infer<typeof sloSchema>;

export const sloCreateSchema = z.object({
  project: projectSchema,
  ...sloFields,
  windowDays: sloFields.windowDays.default(SLO_DEFAULTS.windowDays),
  countDeclines: sloFields.countDeclines.default(SLO_DEFAULTS.countDeclines),
  countRecovered: sloFields.countRecovered.default(SLO_DEFAULTS.countRecovered),
  /** Where its burn-rate alerts go (the alert rule made with it); null: kept in the history only. */
  receiverId: z.number().int().nullable().default(null),
});
export type SloCreate = z.infer<typeof sloCreateSchema>;

/** An edit: only the fields given change. */
export const sloPatchSchema = z
  .object({
    name: sloFields.name.optional(),
    tools: sloFields.tools.optional(),
    objective: sloFields.objective.optional(),
    windowDays: sloFields.windowDays.optional(),
    countDeclines: sloFields.countDeclines.optional(),
    countRecovered: sloFields.countRecovered.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "nothing to change" });
export type SloPatch = z.infer<typeof sloPatchSchema>;

/** `ok`: within budget and not burning; `ticket`: slow burn; `page`: fast burn; `exhausted`: no budget left; `no_data`: no calls in the window. */
export const SLO_STATES = ["ok", "ticket", "page", "exhausted", "no_data"] as const;
export type SloState = (typeof SLO_STATES)[number];

const count = z.number().int().nonnegative();
/** Burn rate: the bad share divided by the allowed bad share; null when the window had no calls. */
const burn = z.number().nonnegative().nullable();

/** Calls of a window sorted into good and bad, with what was left out of "bad" by the SLO's switches. */
export const sloCountsSchema = z.object({
  calls: count,
  bad: count,
  /** Declines not counted as bad (countDeclines off). */
  declinesExcluded: count,
  /** Failures the model recovered from, not counted as bad (countRecovered off). */
  recoveredExcluded: count,
});
export type SloCounts = z.infer<typeof sloCountsSchema>;

export const sloStatusSchema = z.object({
  slo: sloSchema,
  state: z.enum(SLO_STATES),
  window: sloCountsSchema,
  /** Good calls / calls over the window; null without calls. */
  sli: z.number().min(0).max(1).nullable(),
  /** Budget left as a fraction of the whole budget: 1 untouched, 0 spent, below 0 overspent. */
  budgetRemaining: z.number(),
  burnRates: z.object({ m5: burn, m30: burn, h1: burn, h6: burn }),
  /** The alert rule made with the SLO (null if deleted), for its receiver and mute state. */
  ruleId: z.number().int().nullable(),
});
export type SloStatus = z.infer<typeof sloStatusSchema>;

export const slosQuerySchema = z.object({ project: projectSchema.default("default") });
export const slosSchema = z.object({ at: z.number(), slos: z.array(sloStatusSchema) });
export type SlosAnswer = z.infer<typeof slosSchema>;

export const sloDetailQuerySchema = z.object({
  project: projectSchema.default("default"),
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** One hour of the window: its calls and bad calls, and the budget left once it had passed. */
export const sloBudgetPointSchema = z.object({ at: z.number(), calls: count, bad: count, budgetRemaining: z.number() });
export type SloBudgetPoint = z.infer<typeof sloBudgetPointSchema>;

/** The bad calls of the window grouped three ways, most first; runs link to their timelines. */
export const sloFailuresSchema = z.object({
  codes: z.array(z.object({ code: z.string(), count })),
  tools: z.array(z.object({ tool: z.string(), count })),
  runs: z.array(z.object({ runId: z.string(), count, lastAt: z.number() })),
});
export type SloFailures = z.infer<typeof sloFailuresSchema>;

export const sloDetailSchema = z.object({
  at: z.number(),
  status: sloStatusSchema,
  /** Hourly from the window's start to now; an hour without calls is a zero (the SLO counts calls, so no call means nothing spent). */
  budget: z.array(sloBudgetPointSchema),
  failures: sloFailuresSchema,
});
export type SloDetail = z.infer<typeof sloDetailSchema>;
