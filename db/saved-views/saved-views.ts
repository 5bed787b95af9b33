import { SAVED_VIEWS_PER_PAGE_MAX, type SavedView, type SavedViewCreate, type SavedViewPatch } from "@/lib/contracts/saved-views";
import { noChange, type Audited } from "../audit/audited-change";
import type { Executor, Tx } from "../client";

interface Row {
  id: number;
  project: string;
  page: string;
  name: string;
  params: string;
  shared: number;
  ownerId: string;
  ownerName: string;
  updatedAt: number;
}

const SELECT = `SELECT v.id, v.project_id AS project, v.page, v.name, v.params, v.shared, v.owner_id AS "ownerId", u.name AS "ownerName", v.updated_at AS "updatedAt"
  FROM saved_views v JOIN users u ON u.id = v.owner_id`;

const toView = (r: Row, userId: string): SavedView => ({
  id: r.id, project: r.project, page: r.page, name: r.name, params: r.params, shared: r.shared === 1, mine: r.ownerId === userId, ownerName: r.ownerName, updatedAt: r.updatedAt,
});

/** A saved view as stored, with its owner: what the write routes check access against. */
export type SavedViewRow = Row;

/** One view by id, whoever owns it (the routes decide who may see it). */
export async function getSavedViewRow(db: Executor, id: number): Promise<SavedViewRow | null> {
  return (await db.get<Row>(`${SELECT} WHERE v.id = ?`, [id])) ?? null;
}

/** The views of a page the user sees: their own (by name), then those others shared (by name, then owner). */
export async function listSavedViews(db: Executor, userId: string, project: string, page: string): Promise<SavedView[]> {
  const rows = await db.all<Row>(
    `${SELECT} WHERE v.project_id = @project AND v.page = @page AND (v.owner_id = @user OR v.shared = 1)
     ORDER BY CASE WHEN v.owner_id = @user THEN 0 ELSE 1 END, v.name, u.name, v.id`,
    { project, page, user: userId },
  );
  return rows.map((r) => toView(r, userId));
}

async function nameTaken(db: Executor, userId: string, project: string, page: string, name: string, except: number | null): Promise<boolean> {
  const row = await db.get<{ id: number }>("SELECT id FROM saved_views WHERE project_id = ? AND owner_id = ? AND page = ? AND name = ?", [project, userId, page, name]);
  return row !== undefined && row.id !== except;
}

/** Why a save or rename is refused (a name the owner already uses on that page, too many views), or null. */
export async function savedViewConflict(db: Executor, userId: string, project: string, page: string, name: string, except: number | null): Promise<string | null> {
  if (await nameTaken(db, userId, project, page, name, except)) return `you already have a view named “${name}” on this page`;
  if (except === null) {
    const n = (await db.get<{ n: number }>("SELECT count(*) AS n FROM saved_views WHERE project_id = ? AND owner_id = ? AND page = ?", [project, userId, page]))?.n ?? 0;
    if (n >= SAVED_VIEWS_PER_PAGE_MAX) return `you have ${n} views on this page; delete one first`;
  }
  return null;
}

/** Saves a view for its owner, audited. */
export async function createSavedViewChange(tx: Tx, userId: string, input: SavedViewCreate, now: number): Promise<Audited<SavedView>> {
  const row = await tx.get<{ id: number }>(
    `INSERT INTO saved_views (project_id, owner_id, page, name, params, shared, created_at, updated_at)
     VALUES (@project, @user, @page, @name, @params, @shared, @now, @now) RETURNING id`,
    { project: input.project, user: userId, page: input.page, name: input.name, params: input.params, shared: input.shared ? 1 : 0, now },
  );
  const view = (await getSavedViewRow(tx, row!.id))!;
  return { result: toView(view, userId), audit: { projectId: input.project, action: "view.saved", target: input.name, detail: { page: input.page, params: input.params, shared: input.shared } } };
}

/** Renames, shares or unshares a view, audited; asking for what it already is changes nothing. */
export async function updateSavedViewChange(tx: Tx, view: SavedViewRow, userId: string, patch: SavedViewPatch, now: number): Promise<Audited<SavedView>> {
  const name = patch.name ?? view.name;
  const shared = patch.shared ?? view.shared === 1;
  if (name === view.name && shared === (view.shared === 1)) return { result: toView(view, userId), audit: noChange("the view already is as asked") };
  await tx.run("UPDATE saved_views SET name = ?, shared = ?, updated_at = ? WHERE id = ?", [name, shared ? 1 : 0, now, view.id]);
  const updated = (await getSavedViewRow(tx, view.id))!;
  return {
    result: toView(updated, userId),
    audit: { projectId: view.project, action: "view.changed", target: name, detail: { from: { name: view.name, shared: view.shared === 1 }, to: { name, shared } } },
  };
}

/** Deletes a view, audited. */
export async function deleteSavedViewChange(tx: Tx, view: SavedViewRow): Promise<Audited<null>> {
  await tx.run("DELETE FROM saved_views WHERE id = ?", [view.id]);
  return { result: null, audit: { projectId: view.project, action: "view.deleted", target: view.name, detail: { page: view.page, shared: view.shared === 1 } } };
}
