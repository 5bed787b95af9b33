import { z } from "zod";
import { textQuerySchema } from "./text-query";

/** Fields the full-text search reads: attempts' error messages and the texts models were told. */
export const TEXT_FIELDS = ["message", "told"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export const TEXT_SEARCH_PAGE_DEFAULT = 50;
export const TEXT_SEARCH_PAGE_MAX = 200;

const epochMs = z.coerce.number().int().nonnegative().max(8_640_000_000_000).optional();

export { textQuerySchema };

/** `GET /api/v1/search/text`: calls whose error message or told text matches, newest first. */
export const textSearchQuerySchema = z.object({
  project: z.string().min(1).max(200).default("default"),
  q: textQuerySchema,
  /** One field only; both when absent. */
  field: z.enum(TEXT_FIELDS).optional(),
  /** Rows from `from` (inclusive) to `to` (exclusive), epoch ms. */
  from: epochMs,
  to: epochMs,
  limit: z.coerce.number().int().min(1).max(TEXT_SEARCH_PAGE_MAX).default(TEXT_SEARCH_PAGE_DEFAULT),
});
export type TextSearchQuery = z.infer<typeof textSearchQuerySchema>;

/** A piece of a snippet: matched text is `hit`. Plain text, never markup: the page renders it as text. */
export const snippetSegmentSchema = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetSegment = z.infer<typeof snippetSegmentSchema>;

export const snippetSchema = z.object({
  segments: z.array(snippetSegmentSchema),
  /** Text was left out before the first segment / after the last one. */
  cutStart: z.boolean(),
  cutEnd: z.boolean(),
});
export type Snippet = z.infer<typeof snippetSchema>;

/**
 * One call whose text matched: its latest matching attempt (`message`, with that attempt's span) or
 * its final error (`told`, with the error's event id).
 */
export const textHitSchema = z.object({
  field: z.enum(TEXT_FIELDS),
  runId: z.string(),
  callId: z.string(),
  tool: z.string(),
  code: z.string().nullable(),
  /** The matching attempt's span (`message`); null for `told`. */
  spanId: z.string().nullable(),
  /** The attempt's start or the error's time, epoch ms. */
  at: z.number(),
  /** Attempts of the call whose message matched (1 for `told`). */
  matches: z.number(),
  snippet: snippetSchema,
});
export type TextHit = z.infer<typeof textHitSchema>;

export const textSearchSchema = z.object({
  project: z.string(),
  q: z.string(),
  hits: z.array(textHitSchema),
  /** Distinct runs among the hits listed. */
  runs: z.number(),
  /** More calls matched than `limit`: narrow the query or the time range. */
  truncated: z.boolean(),
});
export type TextSearchAnswer = z.infer<typeof textSearchSchema>;
