import { z } from "zod";

export const conformanceQuerySchema = z.object({ project: z.string().min(1).max(100).default("default") });
export type ConformanceQuery = z.infer<typeof conformanceQuerySchema>;

/** How many of a denominator lack a field; `share` is null when the denominator is 0 (nothing to miss). */
export const gapSchema = z.object({ missing: z.number().int(), of: z.number().int(), share: z.number().nullable() });
export type Gap = z.infer<typeof gapSchema>;

/** What one input format's tool spans lack, so a team sees what its instrumentation does not send. */
export const conformanceSourceSchema = z.object({
  source: z.string(),
  spans: z.number().int(),
  outcome: gapSchema,
  /** Among spans with a known outcome other than `ok`. */
  code: gapSchema,
  attempt: gapSchema,
  release: gapSchema,
});
export type ConformanceSource = z.infer<typeof conformanceSourceSchema>;


/** The fields measured per emitter, in display order. */
export const EMITTER_FIELDS = ["callId", "runId", "attempt", "outcome", "code", "errorClass", "message", "release"] as const;
export type EmitterField = (typeof EMITTER_FIELDS)[number];

/** What to add so an emitter's spans carry a field, and where in that emitter's SDK it goes. */
export const fieldFixSchema = z.object({
  /** The exact attribute (or record field). */
  attribute: z.string(),
  /** Where to set it with that emitter's SDK. */
  where: z.string(),
});
export type FieldFix = z.infer<typeof fieldFixSchema>;

/**
 * One field of an emitter's stored tool spans, each span counted once: sent by the emitter, derived
 * by Faultline from the rest of the input, or missing (stored as unknown).
 */
export const emitterFieldSchema = z.object({
  field: z.enum(EMITTER_FIELDS),
  /** Missing among the spans measured: code, class and message among spans with a known non-ok outcome; the rest among all. */
  gap: gapSchema,
  /** Spans whose value Faultline derived (counted in `gap.of`, not in `gap.missing`). */
  derived: z.number().int(),
  /** How Faultline derives this field for this emitter; null when it never does. */
  derivation: z.string().nullable(),
  /** Only when spans miss the field (sending it would change what is stored); null otherwise or when the emitter has no place for it. */
  fix: fieldFixSchema.nullable(),
});
export type EmitterFieldGap = z.infer<typeof emitterFieldSchema>;

/** Tool-like spans of an emitter that were not stored, by reason. */
export const emitterDropSchema = z.object({
  reason: z.string(),
  attribute: z.string().nullable(),
  spans: z.number().int(),
  lastSeen: z.number().int(),
  /** What to change so these spans are stored. */
  fix: z.string(),
});
export type EmitterDrop = z.infer<typeof emitterDropSchema>;

/** One sender (service + the convention its spans follow): what it sends, what it lacks, what was dropped. */
export const emitterSchema = z.object({
  service: z.string().nullable(),
  convention: z.string(),
  /** Stored tool spans. */
  spans: z.number().int(),
  fields: z.array(emitterFieldSchema),
  drops: z.array(emitterDropSchema),
});
export type ConformanceEmitter = z.infer<typeof emitterSchema>;

/**
 * Stored failures (within raw retention) of one input format and service by where their code came
 * from: the emitter, a project's classification rule, the built-in pack, or none (unclassified).
 */
export const codeSourceCountsSchema = z.object({
  source: z.string(),
  service: z.string().nullable(),
  failures: z.number().int(),
  emitter: z.number().int(),
  rules: z.number().int(),
  builtin: z.number().int(),
  unclassified: z.number().int(),
});
export type CodeSourceCounts = z.infer<typeof codeSourceCountsSchema>;

/** The conformance answer: per input format (as before), per emitter, and where failures' codes came from. */
export const conformanceSchema = z.object({
  project: z.string(),
  sources: z.array(conformanceSourceSchema),
  emitters: z.array(emitterSchema),
  codeSources: z.array(codeSourceCountsSchema),
});
export type Conformance = z.infer<typeof conformanceSchema>;
