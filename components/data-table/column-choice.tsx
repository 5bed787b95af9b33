"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { meQuery } from "@/lib/query/auth";
import type { Column } from "./types";

/** Per column id: shown or hidden by the person's own choice; absent means "by priority and width". */
export type ColumnChoice = Readonly<Record<string, "shown" | "hidden">>;

/**
 * The storage key of one table's choice for one person. The choice lives in this browser's
 * localStorage, keyed by the signed-in user's id (or "admin-secret"/"open" for those callers): there
 * is no per-user preferences store on the server, and which columns fit is a matter of this screen.
 */
export const columnChoiceKey = (user: string, table: string) => `faultline.columns.v1.${user}.${table}`;

function readChoice(key: string): ColumnChoice {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? "{}");
    if (parsed === null || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, "shown" | "hidden"] => e[1] === "shown" || e[1] === "hidden"));
  } catch {
    return {};
  }
}

/** The signed-in person's column choice for a table, read after hydration (the server render shows every column). */
export function useColumnChoice(table: string | undefined): { choice: ColumnChoice; setChoice: (next: ColumnChoice) => void } {
  const me = useQuery({ ...meQuery(), enabled: table !== undefined });
  const user = me.data ? (me.data.user?.id ?? me.data.caller) : undefined;
  const key = table !== undefined && user !== undefined ? columnChoiceKey(user, table) : undefined;
  const [state, setState] = useState<{ key: string | undefined; choice: ColumnChoice }>({ key: undefined, choice: {} });
  useEffect(() => {
    if (key !== undefined) setState({ key, choice: readChoice(key) });
  }, [key]);
  const setChoice = useCallback(
    (next: ColumnChoice) => {
      setState({ key, choice: next });
      if (key === undefined) return;
      try {
        if (Object.keys(next).length === 0) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or refused (private mode): the choice holds for this page only.
      }
    },
    [key],
  );
  return { choice: state.key === key ? state.choice : {}, setChoice };
}

/** The words a column goes by in the chooser. */
export const columnLabel = <T,>(c: Column<T>): string => c.label ?? (typeof c.header === "string" ? c.header : c.id);

/**
 * Tick boxes for a table's columns (the first, which names the row, always stays). A ticked column
 * with a low priority stays on narrow screens too; "Reset" goes back to showing columns by priority.
 */
export function ColumnChooser<T>({ table, columns, choice, onChange }: { table: string; columns: readonly Column<T>[]; choice: ColumnChoice; onChange: (next: ColumnChoice) => void }) {
  const choosable = columns.slice(1);
  const hidden = choosable.filter((c) => choice[c.id] === "hidden").length;
  return (
    <details className="column-chooser" data-testid={`columns-${table}`}>
      <summary>
        Columns{hidden > 0 ? ` · ${hidden} hidden` : ""}
      </summary>
      <fieldset>
        <legend className="sr-only">Columns to show</legend>
        {choosable.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              name={`column-${c.id}`}
              checked={choice[c.id] !== "hidden"}
              onChange={(e) => onChange({ ...choice, [c.id]: e.target.checked ? "shown" : "hidden" })}
            />
            {columnLabel(c)}
          </label>
        ))}
        <button type="button" className="btn" onClick={() => onChange({})} disabled={Object.keys(choice).length === 0}>
          Reset
        </button>
      </fieldset>
    </details>
  );
}
