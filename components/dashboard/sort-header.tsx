"use client";

import type { ReactNode } from "react";

/**
 * A sortable column header: a button (keyboard-reachable) with aria-sort for the current column.
 * A click on another column sorts it `first` (text columns read best A→Z, numbers biggest first);
 * a click on the current one flips the direction.
 */
export function SortHeader({ column, label, sort, dir, onSort, title, className, first = "desc" }: { column: string; label: ReactNode; sort: string; dir: string; onSort: (column: string, dir: "asc" | "desc") => void; title?: string; className?: string; first?: "asc" | "desc" }) {
  const active = sort === column;
  const other = first === "asc" ? "desc" : "asc";
  const next = active && dir === first ? other : first;
  return (
    <th aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined} title={title} className={className} scope="col">
      <button type="button" onClick={() => onSort(column, next)}>
        {label}
      </button>
    </th>
  );
}
