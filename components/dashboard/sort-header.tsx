"use client";

/** A sortable column header: a button (keyboard-reachable) with aria-sort for the current column. */
export function SortHeader({ column, label, sort, dir, onSort, title, className }: { column: string; label: string; sort: string; dir: string; onSort: (column: string, dir: "asc" | "desc") => void; title?: string; className?: string }) {
  const active = sort === column;
  const next = active && dir === "desc" ? "asc" : "desc";
  return (
    <th aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined} title={title} className={className} scope="col">
      <button type="button" onClick={() => onSort(column, column === "tool" || column === "code" ? (active && dir === "asc" ? "desc" : "asc") : next)}>
        {label}
      </button>
    </th>
  );
}
