"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import { columnChoiceKey, COLUMNS_CHANGED, storeColumnChoice } from "@/lib/query/column-choice-store";
import { meQuery } from "@/lib/query/me";
import type { Column } from "./types";

/** Per column id: shown or hidden by the person's own choice; absent means "by priority and width". */
export type ColumnChoice = Readonly<Record<string, "shown" | "hidden">>;

function parseChoice(raw: string | null): ColumnChoice {
  try {
    const parsed: unknown = JSON.parse(raw ?? "{}");
    if (parsed === null || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, "shown" | "hidden"] => e[1] === "shown" || e[1] === "hidden"));
  } catch {
    return {};
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(COLUMNS_CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(COLUMNS_CHANGED, onChange);
  };
}

function stored(key: string | undefined): string | null {
  try {
    return key === undefined ? null : localStorage.getItem(key);
  } catch {
    return null;
  }
}

// The server side of choices loads on demand, out of every table page's first-load JavaScript.
const server = () => import("@/lib/query/column-choices");

/**
 * The person's column choice for a table. The server render (and hydration) show the columns by
 * priority; this browser's copy applies right after; for a signed-in person the server's choice then
 * wins when it has one (until then a choice made only in this browser shows), and each change is saved
 * there too, shown at once, with `saveError` when the server refused or could not be reached.
 */
export function useColumnChoice(table: string): { choice: ColumnChoice; onChange: (next: ColumnChoice) => void; saveError: string | null } {
  const me = useQuery(meQuery());
  const person = me.data?.user?.id;
  const user = me.data ? (person ?? me.data.caller) : undefined;
  const key = user === undefined ? undefined : columnChoiceKey(user, table);
  const raw = useSyncExternalStore(subscribe, () => stored(key), () => null);
  const local = useMemo(() => parseChoice(raw), [raw]);
  // Reading the server's choices (once per table shown) copies them into this browser: the tables read that copy.
  useEffect(() => {
    if (person !== undefined) void server().then((s) => s.readColumnChoices(person)).catch(() => undefined);
  }, [person]);
  const [saveError, setSaveError] = useState<string | null>(null);
  const onChange = useCallback(
    (next: ColumnChoice) => {
      if (key === undefined) return;
      storeColumnChoice(key, next);
      if (person !== undefined) void server().then((s) => s.saveColumnChoice(person, table, next)).then(setSaveError);
    },
    [key, person, table],
  );
  return { choice: local, onChange, saveError };
}

/**
 * The table-box widths under which columns of priority 2 and 3 give way: the same numbers as the
 * container queries of app/globals.css, which hide them from the first paint; here they tell the
 * chooser which columns are showing.
 */
const PRIORITY_MIN_WIDTH = { 2: 800, 3: 1300 } as const;

/** The width of the scrolling box a table sits in, following resizes; null before it is measured. */
function useBoxWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const box = ref.current?.closest(".table-wrap");
    if (!box) return;
    const observer = new ResizeObserver((entries) => setWidth(entries[0]?.contentRect.width ?? null));
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The words a column goes by in the chooser. */
export const columnLabel = <T,>(c: Column<T>): string => c.label ?? (typeof c.header === "string" ? c.header : c.id);

/**
 * Tick boxes for a table's columns (the first, which names the row, always stays), ticked for the
 * columns showing. Ticking a column the width hid shows it anyway; "Reset" goes back to showing
 * columns by priority.
 */
export function ColumnChooser<T>({ table, columns, choice, onChange, saveError }: { table: string; columns: readonly Column<T>[]; choice: ColumnChoice; onChange: (next: ColumnChoice) => void; saveError?: string | null }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const width = useBoxWidth(ref);
  const choosable = columns.slice(1);
  // A box tick says whether the column shows now: by the person's choice, else by its priority and the box's width.
  const showing = (c: Column<T>) => choice[c.id] === "shown" || (choice[c.id] === undefined && (c.priority === undefined || width === null || width >= PRIORITY_MIN_WIDTH[c.priority]));
  const hidden = choosable.filter((c) => !showing(c)).length;
  // The boxes exist only while open: a closed chooser adds no "Final state" beside the filter of that name.
  const [open, setOpen] = useState(false);
  return (
    <details className="column-chooser" data-testid={`columns-${table}`} ref={ref} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary data-unsaved={saveError}>
        Columns{hidden > 0 ? ` · ${hidden} hidden` : ""}
      </summary>
      {open ? (
      <fieldset>
        <legend className="sr-only">Columns to show</legend>
        {choosable.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              name={`column-${c.id}`}
              checked={showing(c)}
              onChange={(e) => onChange({ ...choice, [c.id]: e.target.checked ? "shown" : "hidden" })}
            />
            {columnLabel(c)}
          </label>
        ))}
        <button type="button" className="btn" onClick={() => onChange({})} disabled={Object.keys(choice).length === 0}>
          Reset
        </button>
      </fieldset>
      ) : null}
    </details>
  );
}
