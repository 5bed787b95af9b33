"use client";

import { useQuery } from "@tanstack/react-query";
import { lazy } from "react";
import { meQuery } from "@/lib/query/me";
import { AfterHydration } from "./after-hydration";

/** The section while its script loads: the same heading and height, the save button not usable yet. */
function Pending() {
  return (
    <section id="saved-views" className="saved-views" aria-labelledby="saved-views-title">
      <h2 id="saved-views-title">Saved views</h2>
      <p className="saved-views-empty">Loading…</p>
      <button type="button" className="btn saved-view-add" disabled>
        Save the current filters…
      </button>
    </section>
  );
}

// Under the sections, and behind the menu on a phone: the list, its forms and their write calls load
// after the first paint instead of weighing on every page's first-load script.
const SavedViews = lazy(() => import("./saved-views").then((m) => ({ default: m.SavedViews })));

/** The saved views of the page on screen, for signed-in people: views belong to a person, so the admin secret and setup mode have none. */
export function SavedViewsSlot(props: { project: string; page: string; query: string }) {
  const person = useQuery(meQuery()).data?.caller === "user";
  if (!person) return null;
  return (
    <AfterHydration fallback={<Pending />}>
      <SavedViews {...props} />
    </AfterHydration>
  );
}
