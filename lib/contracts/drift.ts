import { z } from "zod";
import { DRIFT_KINDS, DRIFT_SEVERITIES } from "./drift-summary";
import { pageInfoSchema, pageQuerySchema } from "./paging";

export {
  DRIFT_KINDS,
  DRIFT_SEVERITIES,
  driftSummaryEntrySchema,
  driftSummaryQuerySchema,
  driftSummaryResponseSchema,
  type DriftKind,
  type DriftSeverity,
  type DriftSummaryEntry,
  type DriftSummaryResponse,
} from "./drift-summary";

/**
 * The judgement of a finding. `not_semver`: the releases carry no compatibility promise;
 * `improvement`: behaviour changed for the better (calls recover more often, shorter waits, the
 * model corrects itself more often), listed for information and never a violation.
 */
export const DRIFT_VERDICTS = ["violation", "allowed", "not_semver", "improvement"] as const;
export type DriftVerdict = (typeof DRIFT_VERDICTS)[number];

/** Which version component changed between the two releases compared. */
export const DRIFT_BUMPS = ["major", "minor", "patch", "prerelease", "pre1_minor", "not_semver"] as const;
export type DriftBump = (typeof DRIFT_BUMPS)[number];

/** Where a release label came from, in order of preference. */
export const RELEASE_KINDS = ["tool_version", "release", "sdk_version", "week"] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

export const DRIFT_METRICS = ["recovery", "retry_after", "self_correction"] as const;
export type DriftMetric = (typeof DRIFT_METRICS)[number];

/** Which way a behaviour finding moved for the code's clients; null for changes of meaning (repurposed, removed…), which break either way. */
export const DRIFT_DIRECTIONS = ["worse", "better"] as const;
export type DriftDirection = (typeof DRIFT_DIRECTIONS)[number];

const countSchema = z.number().int().nonnegative();

/** One value of a categorical mix and how often it was seen. */
export const mixEntrySchema = z.object({ value: z.string(), count: countSchema, share: z.number() });

/** A categorical mix; `basis` says whether it counts attempts (spans) or final errors. */
export const mixSchema = z.object({
  basis: z.enum(["attempts", "errors", "none"]),
  total: countSchema,
  entries: z.array(mixEntrySchema),
});
export type Mix = z.infer<typeof mixSchema>;

/** What one code looked like on one tool in one release. */
export const driftSignatureSchema = z.object({
  code: z.string(),
  tool: z.string(),
  release: z.string(),
  releaseKind: z.enum(RELEASE_KINDS),
  calls: countSchema,
  spans: countSchema,
  errors: countSchema,
  firstSeen: z.number().int(),
  lastSeen: z.number().int(),
  errorClass: mixSchema,
  retryable: mixSchema,
  outcome: mixSchema,
  decision: mixSchema,
  retryAfter: z.object({ samples: countSchema, medianMs: z.number().nullable(), p90Ms: z.number().nullable() }),
  recovery: z.object({ calls: countSchema, recovered: countSchema, rate: z.number().nullable() }),
  toldShapes: z.array(z.object({ shape: z.string(), count: countSchema })),
  exampleRunIds: z.array(z.string()),
});
export type DriftSignature = z.infer<typeof driftSignatureSchema>;

/** The self-correction rate of a code on a tool in one release: decided surfaced errors and those recovered from. */
export const selfCorrectionSideSchema = z.object({
  release: z.string(),
  firstSeen: z.number().int(),
  decided: countSchema,
  recovered: countSchema,
  rate: z.number(),
});
export type SelfCorrectionSide = z.infer<typeof selfCorrectionSideSchema>;

export const driftFindingSchema = z.object({
  id: z.string(),
  kind: z.enum(DRIFT_KINDS),
  metric: z.enum(DRIFT_METRICS).nullable(),
  severity: z.enum(DRIFT_SEVERITIES),
  verdict: z.enum(DRIFT_VERDICTS),
  bump: z.enum(DRIFT_BUMPS),
  code: z.string(),
  /** For `renamed`: the code that took over. */
  renamedTo: z.string().nullable(),
  tool: z.string(),
  fromRelease: z.string(),
  toRelease: z.string(),
  beforeCalls: countSchema,
  afterCalls: countSchema,
  /** The dimensions that changed (`error_class`, `retryable`, `outcome`, `decision`, `recovery`, `retry_after`). */
  changes: z.array(z.string()),
  /** For behaviour and model behaviour findings: whether the change is for the worse or the better (findings stored before it was kept read as null). */
  direction: z.enum(DRIFT_DIRECTIONS).nullable().default(null),
  sentence: z.string(),
  before: driftSignatureSchema.nullable(),
  after: driftSignatureSchema.nullable(),
  exampleRuns: z.object({ before: z.array(z.string()), after: z.array(z.string()) }),
  /** For `model_behaviour`: the self-correction rate before and after (`before`/`after` signatures are null). */
  selfCorrection: z.object({ before: selfCorrectionSideSchema, after: selfCorrectionSideSchema }).optional(),
  /**
   * The finding's history of classification: changes of rules that set (or had set) its code, and
   * reorders and pack switches that moved it, oldest first (`rule “Name” edited to v2 at <ISO time>`,
   * `rules reordered at <ISO time>`); absent when there were none.
   */
  ruleNotes: z.array(z.string()).optional(),
});
export type DriftFinding = z.infer<typeof driftFindingSchema>;

const optionalFilter = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));
const projectParam = z.string().trim().min(1).max(200).default("default");

/** `GET /api/v1/drift` query string. */
export const driftFindingsQuerySchema = z.object({
  project: projectParam,
  kind: z.enum(DRIFT_KINDS).optional(),
  severity: z.enum(DRIFT_SEVERITIES).optional(),
  tool: optionalFilter,
  code: optionalFilter,
  // One page of findings: a project with many codes and releases can have thousands.
  offset: pageQuerySchema.shape.offset,
  limit: pageQuerySchema.shape.limit,
});
export type DriftFindingsQuery = z.infer<typeof driftFindingsQuerySchema>;

export const driftFindingsResponseSchema = z.object({
  findings: z.array(driftFindingSchema),
  /** Which slice of the findings that match the filters `findings` holds. */
  page: pageInfoSchema,
  /** Findings of the project before filtering, per kind and per severity (for the filter bar). */
  totals: z.object({ all: countSchema, byKind: z.record(z.string(), countSchema), bySeverity: z.record(z.string(), countSchema) }),
  computedAt: z.number().int().nullable(),
  /**
   * False while ingested rows wait to be folded in the background: the findings are those of
   * `computedAt`, and a later read will include the rest. Reads never wait for a fold.
   */
  upToDate: z.boolean(),
});
export type DriftFindingsResponse = z.infer<typeof driftFindingsResponseSchema>;

/** `GET /api/v1/drift/codes/<code>/history`. */
export const codeReleaseHistoryQuerySchema = z.object({ project: projectParam, tool: optionalFilter });
export const codeReleasePointSchema = z.object({
  release: z.string(),
  releaseKind: z.enum(RELEASE_KINDS),
  firstSeen: z.number().int(),
  tools: z.array(z.string()),
  calls: countSchema,
  spans: countSchema,
  errors: countSchema,
  byClass: z.record(z.string(), countSchema),
  byOutcome: z.record(z.string(), countSchema),
  retryable: z.object({ retryable: countSchema, permanent: countSchema }),
  recoveryRate: z.number().nullable(),
  retryAfterMedianMs: z.number().nullable(),
});
export type CodeReleasePoint = z.infer<typeof codeReleasePointSchema>;
export const codeReleaseHistorySchema = z.object({
  code: z.string(),
  tool: z.string().nullable(),
  /** `semver` when every release parsed as a version, else `first_seen`. */
  order: z.enum(["semver", "first_seen"]),
  points: z.array(codeReleasePointSchema),
  /**
   * Changes of the project's classification that concern this code, oldest first: versions of rules
   * that set (or had set) it, and reorders and built-in pack switches that moved calls to or from it
   * (or, while history is still re-classified for them, `pending`: they may concern any code). A code
   * given by rules can change with them, which drift does not report as the tool's doing.
   */
  ruleEdits: z.array(
    z.object({
      /** The rule, its name and the version the change made; null for a reorder or a pack switch. */
      ruleId: z.string().nullable(),
      name: z.string().nullable(),
      version: z.number().int().nullable(),
      action: z.enum(["created", "updated", "deleted", "reordered", "builtin_on", "builtin_off"]),
      at: z.number().int(),
      pending: z.boolean(),
      /** `rule “Name” edited to v2 at <ISO time>`, `rules reordered at <ISO time>`, `built-in pack switched off at <ISO time>`. */
      text: z.string(),
    }),
  ),
});
export type CodeReleaseHistory = z.infer<typeof codeReleaseHistorySchema>;
