import { z } from "zod";

export const SEARCH_KINDS = ["run", "call", "tool", "code", "release"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** At most this many hits per kind: the box offers a short list, never a result page. */
export const SEARCH_LIMIT_PER_KIND = 5;

export const searchQuerySchema = z.object({
  project: z.string().min(1).max(100).default("default"),
  /** A prefix of a run id, call id, tool, code or release (case-sensitive, as ids are). */
  q: z.string().trim().min(1).max(200),
});

/**
 * A call id: where it lives, so the box can open its run with the call selected. One call id may
 * come back once per run that used it (sources reuse short ids across runs).
 */
const callHitSchema = z.object({
  kind: z.literal("call"),
  value: z.string(),
  runId: z.string(),
  /** The span of the call's first attempt: the run page selects it (`?attempt=`). */
  spanId: z.string(),
});

/** A run id, tool, code or release: the value is all its page needs. */
const namedHitSchema = z.object({ kind: z.enum(SEARCH_KINDS).exclude(["call"]), value: z.string() });

export const searchHitSchema = z.discriminatedUnion("kind", [callHitSchema, namedHitSchema]);

export const searchSchema = z.object({
  project: z.string(),
  q: z.string(),
  hits: z.array(searchHitSchema),
  /** Some kind had more matches than it lists: type more to narrow. */
  truncated: z.boolean(),
});
export type SearchAnswer = z.infer<typeof searchSchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
