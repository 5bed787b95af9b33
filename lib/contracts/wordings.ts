import { z } from "zod";
import { codeSchema, idSchema, nameSchema } from "./primitives";

/** Longest told wording an experiment may carry: room for the `error: <code>: ` prefix and the retry lines in the told text. */
export const MAX_WORDING_LENGTH = 1_000;
/** Most variants one experiment compares (the control and up to three challengers). */
export const MAX_VARIANTS = 4;

/** One told wording of an experiment, with its stable id and its share of the traffic. */
export const wordingVariantSchema = z.object({
  id: idSchema.max(64, "must be at most 64 characters"),
  text: z.string().trim().min(1, "must not be empty").max(MAX_WORDING_LENGTH, `must be at most ${MAX_WORDING_LENGTH} characters`),
  /** Share of the runs, in whole percent; the variants of one experiment sum to 100. */
  weight: z.number().int().min(0).max(100),
});
export type WordingVariant = z.infer<typeof wordingVariantSchema>;

/**
 * One entry of a project's wording set: a running experiment (several variants, assigned per run)
 * or a promoted winner (one variant, told to every run, recorded without an experiment).
 */
export const wordingEntrySchema = z.object({
  code: codeSchema,
  /** Only this tool's errors; null for the code on every tool. */
  tool: nameSchema.nullable(),
  experiment: idSchema.max(64, "must be at most 64 characters"),
  state: z.enum(["running", "promoted"]),
  variants: z.array(wordingVariantSchema).min(1).max(MAX_VARIANTS),
});
export type WordingEntry = z.infer<typeof wordingEntrySchema>;

/** `GET /api/v1/projects/:project/wordings`: what a runtime tells the model, per code, from Faultline. */
export const wordingSetSchema = z.object({
  project: z.string(),
  entries: z.array(wordingEntrySchema),
});
export type WordingSetAnswer = z.infer<typeof wordingSetSchema>;

/** `GET /api/v1/wordings?project=`: the project whose wording set a runtime asks for. */
export const wordingsQuerySchema = z.object({ project: idSchema });
/** Seconds a runtime or a proxy may keep a wording set before asking again (`Cache-Control: max-age`). */
export const WORDINGS_MAX_AGE_S = 60;
