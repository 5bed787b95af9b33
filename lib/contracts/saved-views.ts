import { z } from "zod";

/**
 * Saved views (docs/saved-views.md): a named set of filters of one dashboard page, its owner's alone
 * or shared with the project's members. The filters are the page's URL query without `project`.
 */
export const SAVED_VIEW_NAME_MAX = 80;
export const SAVED_VIEW_PARAMS_MAX = 2000;
/** Views one person may keep per project and page (their own; shared ones of others do not count). */
export const SAVED_VIEWS_PER_PAGE_MAX = 50;

/** A page path as the app has them: `/`, `/runs`, `/tools/<name>` (segments URL-encoded). */
export const savedViewPageSchema = z
  .string()
  .max(300)
  .regex(/^\/(?!\/)[A-Za-z0-9\-._~%/]*$/, "must be a page path such as /runs");

const nameSchema = z.string().trim().min(1, "name the view").max(SAVED_VIEW_NAME_MAX);

/**
 * A page's query string, normalised: parsed, `project` and empty values removed, keys sorted, so the
 * same filters are the same view whatever order the URL had them in.
 */
export function normalizeViewParams(query: string): string {
  const params = new URLSearchParams(query.startsWith("?") ? query.slice(1) : query);
  const kept = [...params.entries()].filter(([k, v]) => k !== "project" && v !== "").sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(kept).toString();
}

const paramsSchema = z.string().max(SAVED_VIEW_PARAMS_MAX).transform(normalizeViewParams);

/** `POST /api/v1/saved-views`: saves the page's current filters under a name. */
export const savedViewCreateSchema = z.object({
  project: z.string().min(1).max(200),
  page: savedViewPageSchema,
  name: nameSchema,
  params: paramsSchema,
  shared: z.boolean().default(false),
});
export type SavedViewCreate = z.infer<typeof savedViewCreateSchema>;

/** `PATCH /api/v1/saved-views/:id`: renames it, shares or unshares it. */
export const savedViewPatchSchema = z
  .object({ name: nameSchema.optional(), shared: z.boolean().optional() })
  .refine((p) => p.name !== undefined || p.shared !== undefined, "give a new name or shared");
export type SavedViewPatch = z.infer<typeof savedViewPatchSchema>;

export const savedViewSchema = z.object({
  id: z.number().int(),
  project: z.string(),
  page: z.string(),
  name: z.string(),
  params: z.string(),
  shared: z.boolean(),
  /** The caller saved it (and so may rename, share or delete it). */
  mine: z.boolean(),
  ownerName: z.string(),
  updatedAt: z.number(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

/** `GET /api/v1/saved-views?project=&page=`: the caller's views of the page, then those shared by others. */
export const savedViewsQuerySchema = z.object({
  project: z.string().min(1).max(200).default("default"),
  page: savedViewPageSchema,
});
export const savedViewsSchema = z.object({ views: z.array(savedViewSchema) });
export type SavedViews = z.infer<typeof savedViewsSchema>;
