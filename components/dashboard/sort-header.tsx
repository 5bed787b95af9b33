"use client";

import type { ReactNode } from "react";

/**
 * A sortable column header: a button (keyboard-reachable) with aria-sort for the current column.
 * A click on another column sorts it `first` (text columns read best A→Z, numbers biggest first);
 * a click on the current one flips the direction.
 */
export function SortHeader({
  column, label, sort, dir, onSort, title, className, first = "desc", shown = { sort, dir },
}: {
  column: string; label: ReactNode; sort: string; dir: string; onSort: (column: string, dir: "asc" | "desc") => void; title?: string; className?: string; first?: "asc" | "desc";
  /** The order of the rows on screen, when it differs from the one asked for (its answer has not come). */
  shown?: { sort: string; dir: string };
}) {
  const active = sort === column;
  const other = first === "asc" ? "desc" : "asc";
  const next = active && dir === first ? other : first;
  const sorted = shown.sort === column;
  const waiting = active && (shown.sort !== sort || shown.dir !== dir);
  return (
    <th aria-sort={sorted ? (shown.dir === "asc" ? "ascending" : "descending") : undefined} title={title} className={className} scope="col" data-sort-pending={waiting || undefined}>
      <button type="button" onClick={() => onSort(column, next)}>
        {label}
      </button>
    </th>
  );
}
