import { z } from "zod";
import { dashboardQuerySchema, sortDirSchema, windowSchema } from "./filters";
import { outcomePointSchema } from "./outcome-point";
import { pageInfoSchema, pageQuerySchema } from "./paging";
import { codeToldSchema } from "./told-step";

/** The most tool and release names one code row lists. */
export const CODE_ROW_NAMES_MAX = 20;

export const CODE_SORTS = ["code", "attempts", "failures", "tools", "first_seen", "last_seen", "retryable_share"] as const;

export const codesQuerySchema = dashboardQuerySchema.extend({
  sort: z.enum(CODE_SORTS).default("failures"),
  dir: sortDirSchema,
  ...pageQuerySchema.shape,
});
export type CodesQuery = z.infer<typeof codesQuerySchema>;

export const codeRowSchema = z.object({
  code: z.string(),
  errorClasses: z.array(z.string()),
  /** Share of catalogued spans whose error claimed retryable, among those that said; null if none said. */
  retryableShare: z.number().nullable(),
  retryableValues: z.array(z.enum(["yes", "no", "unknown"])),
  /** More than one class, or both retryable and not: the code means two things. */
  conflicting: z.boolean(),
  attempts: z.number(),
  failures: z.number(),
  outcomes: z.array(z.object({ outcome: z.string(), attempts: z.number() })),
  /** The first {@link CODE_ROW_NAMES_MAX} tools by name; `toolCount` counts them all. */
  tools: z.array(z.string()),
  toolCount: z.number().int(),
  /** The first {@link CODE_ROW_NAMES_MAX} releases by name; `releaseCount` counts them all. */
  releases: z.array(z.string()),
  releaseCount: z.number().int(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  /**
   * After the model was told this code (docs/after-told.md), all retained history narrowed by the
   * tool and release filters only; null when no error with it was surfaced to the model.
   */
  told: codeToldSchema.nullable(),
});
export type CodeRow = z.infer<typeof codeRowSchema>;

export const codesSchema = z.object({ project: z.string(), window: windowSchema, codes: z.array(codeRowSchema), page: pageInfoSchema });
export type CodesAnswer = z.infer<typeof codesSchema>;

export const codeDetailQuerySchema = dashboardQuerySchema.extend({ code: z.string().min(1).max(512) });

export const codeDetailSchema = z.object({
  project: z.string(),
  window: windowSchema,
  summary: codeRowSchema.nullable(),
  outcomeSeries: z.array(outcomePointSchema),
  byTool: z.array(z.object({ tool: z.string(), attempts: z.number(), failures: z.number(), declined: z.number(), refused: z.number() })),
  /** The catalogue rows: what this code meant, per release, tool version, class and retryability. */
  meanings: z.array(
    z.object({
      release: z.string(),
      tool: z.string(),
      toolVersion: z.string(),
      errorClass: z.string(),
      retryable: z.enum(["yes", "no", "unknown"]),
      firstSeen: z.number(),
      lastSeen: z.number(),
      spans: z.number(),
      errors: z.number(),
    }),
  ),
});
export type CodeDetail = z.infer<typeof codeDetailSchema>;
