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

export const conformanceSchema = z.object({ project: z.string(), sources: z.array(conformanceSourceSchema) });
export type Conformance = z.infer<typeof conformanceSchema>;
