import { z } from "zod";
import { ERROR_CLASSES, type ErrorClass, type Outcome } from "./enums";
import { dashboardQuerySchema } from "./filters";
import { LIMITS } from "./limits";

/** Glob text: `*` any run of characters, `?` one character; everything else is literal. */
const glob = z.string().trim().min(1).max(LIMITS.maxNameLength);

/** One attribute condition: the span attribute `key` whose value (as text) matches the glob `value`. */
export const attributeMatchSchema = z.object({
  key: z.string().trim().min(1).max(LIMITS.maxNameLength),
  value: glob,
});

/**
 * What a rule matches; every condition given must hold, and at least one must be given (a rule
 * matching every failure would hide them all). Globs over the tool name are case-sensitive (tool names
 * are identifiers); over the error type and the message they ignore case. The error type also matches
 * its last dotted segment (`RateLimitError` matches `openai.RateLimitError`); the message glob matches
 * the message itself or its shape (`order <id> not found`), so a group's shape can be pasted as is.
 */
export const ruleMatchSchema = z
  .object({
    tool: glob.nullable().default(null),
    errorType: glob.nullable().default(null),
    message: z.string().trim().min(1).max(1000).nullable().default(null),
    httpStatus: z.array(z.number().int().min(100).max(599)).max(20).default([]),
    attributes: z.array(attributeMatchSchema).max(10).default([]),
  })
  .refine((m) => m.tool !== null || m.errorType !== null || m.message !== null || m.httpStatus.length > 0 || m.attributes.length > 0, {
    message: "a rule needs at least one condition",
  });
export type RuleMatch = z.output<typeof ruleMatchSchema>;

/** The outcome a class implies for a failure the rule classifies: declined and refused stay apart. */
export const CLASS_OUTCOMES: Readonly<Record<ErrorClass, Outcome>> = {
  ToolFailure: "failed",
  ToolRefusal: "declined",
  ToolNotPermittedError: "refused",
  ToolTimedOutError: "timed_out",
  ToolNotFoundError: "not_found",
  ToolArgumentValidationError: "invalid_arguments",
  ToolResultError: "result_rejected",
};

/** What a matching rule sets. A null class or retryable leaves the span's own value. */
export const ruleSetSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.maxCodeLength)
    .regex(/^[A-Za-z0-9_.:-]+$/, "a code is letters, digits and _ . : -"),
  errorClass: z.enum(ERROR_CLASSES).nullable().default(null),
  retryable: z.boolean().nullable().default(null),
});
export type RuleSet = z.output<typeof ruleSetSchema>;

/** A rule as the API accepts it (create or edit). */
export const ruleInputSchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.maxNameLength),
  enabled: z.boolean().default(true),
  match: ruleMatchSchema,
  set: ruleSetSchema,
  /** Whether the rule may replace a code the emitter sent; off by default. */
  overrideEmitter: z.boolean().default(false),
});
export type RuleInput = z.output<typeof ruleInputSchema>;

/** A stored rule: its id, version (each edit is a new version) and place in the project's order. */
export const classificationRuleSchema = ruleInputSchema.extend({
  id: z.string(),
  version: z.number().int().min(1),
  position: z.number().int().min(0),
  updatedAt: z.number().int(),
});
export type ClassificationRule = z.output<typeof classificationRuleSchema>;

export { codeSourceSchema, type CodeSource } from "./code-source";

const projectParam = z.string().min(1).max(100).default("default");

/** `GET /api/v1/classification/rules`: the project's rules in order, the pack and its switch. */
export const classificationRulesQuerySchema = z.object({ project: projectParam });
export const builtinRuleSchema = z.object({ id: z.string(), description: z.string(), code: z.string(), errorClass: z.string().nullable(), retryable: z.boolean().nullable() });
export const classificationRulesSchema = z.object({
  project: z.string(),
  builtinEnabled: z.boolean(),
  revision: z.number().int(),
  rules: z.array(classificationRuleSchema),
  builtin: z.array(builtinRuleSchema),
});
export type ClassificationRules = z.output<typeof classificationRulesSchema>;

/** A rule written by the API (create or edit): the rule and its project. */
export const ruleWriteSchema = ruleInputSchema.extend({ project: z.string().min(1).max(100) });
export const ruleOrderSchema = z.object({ project: z.string().min(1).max(100), ids: z.array(z.string().min(1).max(64)).max(500) });
export const builtinSwitchSchema = z.object({ project: z.string().min(1).max(100), enabled: z.boolean() });

/** `GET /api/v1/classification/progress`: how far stored calls are re-classified to the current rules. */
export const classificationProgressQuerySchema = z.object({ project: projectParam });
export const classificationProgressSchema = z.object({
  project: z.string(),
  revision: z.number().int(),
  appliedRevision: z.number().int(),
  examined: z.number().int(),
  changed: z.number().int(),
  total: z.number().int(),
  /** Stored failures still classified at an older revision. */
  remaining: z.number().int(),
  upToDate: z.boolean(),
});
export type ClassificationProgress = z.output<typeof classificationProgressSchema>;

/** A failure group as the Codes page lists it. */
export const failureGroupSchema = z.object({
  key: z.string(),
  tool: z.string(),
  errorType: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  /** The masked message shared by the group's failures. */
  shape: z.string(),
  calls: z.number().int(),
  runs: z.number().int(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  /** Up to three recent messages, as stored (scrubbed), and the runs they come from. */
  samples: z.array(z.object({ message: z.string().nullable(), runId: z.string(), spanId: z.string(), at: z.number() })),
});
export type FailureGroup = z.output<typeof failureGroupSchema>;
export const failureGroupsSchema = z.object({ project: z.string(), from: z.number(), to: z.number(), groups: z.array(failureGroupSchema) });

/** The window of the groups list and the preview: a range or absolute bounds, as on every dashboard read. */
export const classificationWindowQuerySchema = dashboardQuerySchema.pick({ project: true, range: true, from: true, to: true });
export const failureGroupsQuerySchema = classificationWindowQuerySchema.extend({ limit: z.coerce.number().int().min(1).max(200).default(50) });

const flag = z.enum(["true", "false"]).transform((v) => v === "true");
const optionalText = (max: number) => z.string().trim().max(max).optional().transform((v) => (v === undefined || v === "" ? null : v));

/**
 * `GET /api/v1/classification/preview`: a candidate rule as flat query parameters (what the typed form
 * holds): `httpStatus` is a comma-separated list, one attribute condition is `attrKey` + `attrValue`.
 * `ruleId` previews an edit of that rule in its place; without it the rule is previewed as a new last rule.
 */
export const classificationPreviewQuerySchema = classificationWindowQuerySchema.extend({
  ruleId: optionalText(64),
  tool: optionalText(LIMITS.maxNameLength),
  errorType: optionalText(LIMITS.maxNameLength),
  message: optionalText(1000),
  httpStatus: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parts = (v ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "");
      const out = parts.map(Number);
      if (out.some((n) => !Number.isInteger(n) || n < 100 || n > 599)) ctx.addIssue({ code: "custom", message: "statuses are integers from 100 to 599, comma-separated" });
      return out;
    }),
  attrKey: optionalText(LIMITS.maxNameLength),
  attrValue: optionalText(LIMITS.maxNameLength),
  code: ruleSetSchema.shape.code,
  errorClass: z.enum(ERROR_CLASSES).optional(),
  retryable: flag.optional(),
  overrideEmitter: flag.optional(),
});
export type ClassificationPreviewQuery = z.output<typeof classificationPreviewQuerySchema>;

/** The rule input a preview query describes (the same checks as a saved rule). */
export function previewRule(q: ClassificationPreviewQuery): z.ZodSafeParseResult<RuleInput> {
  return ruleInputSchema.safeParse({
    name: "preview",
    match: {
      tool: q.tool, errorType: q.errorType, message: q.message, httpStatus: q.httpStatus,
      attributes: q.attrKey !== null && q.attrValue !== null ? [{ key: q.attrKey, value: q.attrValue }] : [],
    },
    set: { code: q.code, errorClass: q.errorClass ?? null, retryable: q.retryable ?? null },
    overrideEmitter: q.overrideEmitter ?? false,
  });
}

/** What a candidate rule would do to the stored failures of the window. */
export const classificationPreviewSchema = z.object({
  project: z.string(),
  from: z.number(),
  to: z.number(),
  /** Failures in the window the rule would classify (it would be the first rule to match). */
  matched: z.number().int(),
  /** Of those, how many have no code now. */
  unclassifiedNow: z.number().int(),
  /** Of those, how many have a code now that the rule would change (another code, class, retryable or outcome). */
  changesCoded: z.number().int(),
  /** Failures in the window examined. */
  examined: z.number().int(),
});
export type ClassificationPreview = z.output<typeof classificationPreviewSchema>;
