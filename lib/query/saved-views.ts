import { savedViewsEndpoints } from "@/lib/api/read/saved-views";
import { endpointUrl } from "@/lib/api/endpoint";
import { savedViewSchema, type SavedView, type SavedViewCreate, type SavedViewPatch } from "@/lib/contracts/saved-views";
import { z } from "zod";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

/** The caller's views of a page and those shared with the project. */
export const savedViewsQuery = (project: string, page: string) => endpointQuery(savedViewsEndpoints.savedViews, { params: {}, search: { project, page } });

/** Every cached list of saved views, to refresh after a change. */
export const savedViewsKey = [savedViewsEndpoints.savedViews.id] as const;

const base = endpointUrl(savedViewsEndpoints.savedViews, { params: {}, search: {} });

export const createSavedView = (body: SavedViewCreate) => sendJson("POST", base, savedViewSchema, body);
export const patchSavedView = (id: number, patch: SavedViewPatch) => sendJson("PATCH", `${base}/${id}`, savedViewSchema, patch);
export const deleteSavedView = (id: number) => sendJson("DELETE", `${base}/${id}`, z.undefined());

/** The address a view opens: its page with its filters, in the project. */
export function savedViewHref(view: Pick<SavedView, "page" | "params" | "project">): string {
  const params = new URLSearchParams(view.params);
  if (view.project !== "default") params.set("project", view.project);
  const qs = params.toString();
  return qs ? `${view.page}?${qs}` : view.page;
}
