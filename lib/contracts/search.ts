import { z } from "zod";

export const SEARCH_KINDS = ["run", "tool", "code", "release"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** At most this many hits per kind: the box offers a short list, never a result page. */
export const SEARCH_LIMIT_PER_KIND = 5;

export const searchQuerySchema = z.object({
  project: z.string().min(1).max(100).default("default"),
  /** A prefix of a run id, tool, code or release (case-sensitive, as ids are). */
  q: z.string().trim().min(1).max(200),
});

export const searchHitSchema = z.object({ kind: z.enum(SEARCH_KINDS), value: z.string() });

export const searchSchema = z.object({
  project: z.string(),
  q: z.string(),
  hits: z.array(searchHitSchema),
  /** Some kind had more matches than it lists: type more to narrow. */
  truncated: z.boolean(),
});
export type SearchAnswer = z.infer<typeof searchSchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
