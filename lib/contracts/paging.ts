import { z } from "zod";

/** Rows per page of the tools and codes tables unless asked otherwise; the most one answer holds. */
export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 500;

/**
 * Paging of a table computed whole on the server (tools, codes): `q` keeps the rows whose name
 * contains it (case-insensitive), then the sorted rows from `offset` on, at most `limit`. Without
 * it a project with 100k codes answered 100k rows (154 MB of page HTML).
 */
export const pageQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(PAGE_DEFAULT),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** Which slice an answer holds: `total` rows matched the filters and `q`. */
export const pageInfoSchema = z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type PageInfo = z.infer<typeof pageInfoSchema>;

/** The page of already sorted rows that `page` asks for, with its page info. */
export function pageOf<T>(rows: readonly T[], nameOf: (row: T) => string, page: PageQuery): { rows: T[]; page: PageInfo } {
  const needle = page.q?.toLowerCase();
  const matched = needle ? rows.filter((r) => nameOf(r).toLowerCase().includes(needle)) : rows;
  return { rows: matched.slice(page.offset, page.offset + page.limit), page: { total: matched.length, offset: page.offset, limit: page.limit } };
}

/** At most `max` values of a list that may grow with the data, and whether it was cut. */
export function capList<T>(values: readonly T[], max: number): { values: T[]; cut: boolean } {
  return { values: values.slice(0, max), cut: values.length > max };
}
