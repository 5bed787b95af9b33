"use client";

import { useRef, useState, type ReactNode, type SelectHTMLAttributes } from "react";

/**
 * A select that applies a choice once it is made, not on every arrow key: a choice from the open list
 * applies at once; stepping a closed select with the arrow keys waits for Enter or for focus to
 * leave, so stepping through the options does not reload the page's data at each step.
 */
export function CommitSelect({ value, onCommit, children, ...rest }: { value: string; onCommit: (value: string) => void; children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "defaultValue">) {
  const [draft, setDraft] = useState<{ from: string; value: string } | null>(null);
  // True between a key that steps a closed select (arrows, Home/End, type-ahead) and its change event.
  const stepping = useRef(false);
  // A new value from outside (the URL) drops a pending keyboard draft.
  const shown = draft && draft.from === value ? draft.value : value;
  const commit = (next: string) => {
    setDraft(null);
    if (next !== value) onCommit(next);
  };
  return (
    <select
      {...rest}
      value={shown}
      onKeyDown={(e) => {
        stepping.current = !e.altKey && !e.ctrlKey && !e.metaKey && (/^(Arrow(Up|Down|Left|Right)|Home|End|PageUp|PageDown)$/.test(e.key) || (e.key.length === 1 && e.key !== " "));
        if (e.key === "Enter") {
          e.preventDefault();
          commit(e.currentTarget.value);
        }
      }}
      onChange={(e) => {
        // A choice from the open list (pointer, or Enter in the popup) applies; a step waits.
        if (stepping.current) setDraft({ from: value, value: e.currentTarget.value });
        else commit(e.currentTarget.value);
        stepping.current = false;
      }}
      onBlur={(e) => {
        stepping.current = false;
        if (draft && draft.from === value) commit(e.currentTarget.value);
      }}
    >
      {children}
    </select>
  );
}
