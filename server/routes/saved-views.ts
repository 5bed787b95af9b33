import { createSavedViewChange, deleteSavedViewChange, getSavedViewRow, listSavedViews, savedViewConflict, updateSavedViewChange, type SavedViewRow } from "@/db/saved-views/saved-views";
import { endpoints } from "@/lib/api/endpoints";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { savedViewCreateSchema, savedViewPatchSchema } from "@/lib/contracts/saved-views";
import type { Caller } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** Saved views belong to a person: the admin secret and setup mode have none. */
function userIdOf(caller: Caller): string {
  if (caller.kind !== "user") throw new ApiError("forbidden", "saved views belong to a person: sign in to save one");
  return caller.userId;
}

/**
 * Who may change a view: its owner; for a shared view also the project's admins. Another member's
 * private view does not exist for them (404).
 */
function checkMayChange(view: SavedViewRow, caller: Caller, role: ProjectRole): string {
  const userId = userIdOf(caller);
  if (view.ownerId === userId) return userId;
  if (view.shared !== 1) throw new ApiError("not_found", `no saved view ${view.id}`);
  if (!roleAtLeast(role, "admin")) throw new ApiError("forbidden", `only ${view.ownerName}, who saved it, or a project admin may change a shared view`);
  return userId;
}

const viewOf = async ({ id }: { id: string }) => (/^[1-9]\d{0,15}$/.test(id) ? getSavedViewRow(await getStore(), Number(id)) : null);

/** `GET /api/v1/saved-views?project=&page=`: the caller's views of a page and those shared with the project. */
export const savedViewsRoute = defineRoute(endpoints.savedViews, async ({ query, caller }) => ({
  views: caller.kind === "user" ? await listSavedViews(await getStore(), caller.userId, query.project, query.page) : [],
}));

/** `POST /api/v1/saved-views` (any member): saves a page's filters under a name, for the caller or shared. */
export const savedViewCreate = defineMutation({
  body: savedViewCreateSchema,
  access: { project: "body", minimum: "viewer" },
  change: async (tx, { body, caller, now }) => {
    const userId = userIdOf(caller);
    const conflict = await savedViewConflict(tx, userId, body.project, body.page, body.name, null);
    if (conflict) throw new ApiError("conflict", conflict);
    return createSavedViewChange(tx, userId, body, now);
  },
  status: 201,
});

/** `PATCH /api/v1/saved-views/:id`: renames, shares or unshares a view (its owner; a shared one also an admin). */
export const savedViewPatch = defineMutation({
  params: ["id"],
  body: savedViewPatchSchema,
  access: { row: viewOf, notFound: ({ id }) => `no saved view ${id}`, minimum: "viewer" },
  change: async (tx, { row, body, caller, role, now }) => {
    checkMayChange(row, caller, role);
    if (body.name !== undefined) {
      const conflict = await savedViewConflict(tx, row.ownerId, row.project, row.page, body.name, row.id);
      if (conflict) throw new ApiError("conflict", row.ownerId === userIdOf(caller) ? conflict : `${row.ownerName} already has a view named “${body.name}” on this page`);
    }
    return updateSavedViewChange(tx, row, userIdOf(caller), body, now);
  },
});

/** `DELETE /api/v1/saved-views/:id`: deletes a view (its owner; a shared one also an admin). */
export const savedViewDelete = defineMutation({
  params: ["id"],
  access: { row: viewOf, notFound: ({ id }) => `no saved view ${id}`, minimum: "viewer" },
  change: async (tx, { row, caller, role }) => {
    checkMayChange(row, caller, role);
    return deleteSavedViewChange(tx, row);
  },
  respond: () => new Response(null, { status: 204 }),
});
