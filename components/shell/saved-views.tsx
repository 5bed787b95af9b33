"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { normalizeViewParams, SAVED_VIEW_NAME_MAX, type SavedView } from "@/lib/contracts/saved-views";
import { createSavedView, deleteSavedView, patchSavedView, savedViewHref, savedViewsKey, savedViewsQuery } from "@/lib/query/saved-views";

/** One own view's rename, share and delete. */
function ManageView({ view, onChange }: { view: SavedView; onChange: (action: () => Promise<unknown>) => Promise<boolean> }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(view.name);
  if (renaming) {
    return (
      <form
        className="saved-view-form"
        aria-label={`Rename the view ${view.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void onChange(() => patchSavedView(view.id, { name: name.trim() })).then((ok) => ok && setRenaming(false));
        }}
      >
        <label>
          New name
          <input value={name} maxLength={SAVED_VIEW_NAME_MAX} required onChange={(e) => setName(e.target.value)} data-testid="view-rename-input" />
        </label>
        <button type="submit" className="btn">
          Rename
        </button>
        <button type="button" className="btn" onClick={() => setRenaming(false)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <details className="saved-view-manage">
      <summary aria-label={`Manage the view ${view.name}`}>⋯</summary>
      <div>
        <button type="button" className="btn" onClick={() => setRenaming(true)}>
          Rename
        </button>
        <button type="button" className="btn" onClick={() => void onChange(() => patchSavedView(view.id, { shared: !view.shared }))}>
          {view.shared ? "Stop sharing" : "Share with the project"}
        </button>
        <button type="button" className="btn" onClick={() => void onChange(() => deleteSavedView(view.id))}>
          Delete
        </button>
      </div>
    </details>
  );
}

/**
 * Named sets of filters of the page on screen (its URL query): the caller's own, then those other
 * members shared with the project. Applying one opens the page with its filters; the current
 * filters can be saved under a name, for oneself or shared. Shown to signed-in people only
 * (`SavedViewsSlot`, which loads this after the first paint).
 */
export function SavedViews({ project, page, query }: { project: string; page: string; query: string }) {
  const qc = useQueryClient();
  const views = useQuery(savedViewsQuery(project, page));
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const current = normalizeViewParams(query);
  const change = async (action: () => Promise<unknown>): Promise<boolean> => {
    setProblem(null);
    try {
      await action();
      await qc.invalidateQueries({ queryKey: savedViewsKey });
      return true;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return false;
    }
  };
  const list = views.data?.views ?? [];
  return (
    <section id="saved-views" className="saved-views" aria-labelledby="saved-views-title" data-testid="saved-views">
      <h2 id="saved-views-title">Saved views</h2>
      {list.length === 0 ? <p className="saved-views-empty">{views.isPending ? "Loading…" : "None for this page yet."}</p> : null}
      <ul>
        {list.map((v) => (
          <li key={v.id} data-testid="saved-view">
            <Link href={savedViewHref(v)} aria-current={v.params === current ? "true" : undefined} title={v.params === "" ? "no filters" : v.params}>
              {v.name}
              {v.mine ? (v.shared ? <span className="saved-view-tag"> · shared</span> : null) : <span className="saved-view-tag"> · by {v.ownerName}</span>}
            </Link>
            {v.mine ? <ManageView view={v} onChange={change} /> : null}
          </li>
        ))}
      </ul>
      {saving ? (
        <form
          className="saved-view-form"
          aria-label="Save this view"
          onSubmit={(e) => {
            e.preventDefault();
            void change(() => createSavedView({ project, page, name: name.trim(), params: current, shared })).then((ok) => {
              if (!ok) return;
              setSaving(false);
              setName("");
              setShared(false);
            });
          }}
        >
          <label>
            Name
            <input value={name} maxLength={SAVED_VIEW_NAME_MAX} required onChange={(e) => setName(e.target.value)} data-testid="view-name" />
          </label>
          <label className="saved-view-check">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} data-testid="view-shared" /> Share with the project
          </label>
          <button type="submit" className="btn" disabled={name.trim() === ""}>
            Save
          </button>
          <button type="button" className="btn" onClick={() => setSaving(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="btn saved-view-add" onClick={() => setSaving(true)} data-testid="save-view">
          Save the current filters…
        </button>
      )}
      {problem ? (
        <p role="alert" className="saved-views-problem">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
