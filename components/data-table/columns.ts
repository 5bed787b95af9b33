import { formatCount } from "@/lib/charts/format";
import type { Column } from "./types";

type Extra<T> = Partial<Omit<Column<T>, "id" | "header" | "cell">>;

/** A number column (right-aligned in the dashboard sheet) whose text `format` decides. */
export function numberColumn<T, V>(id: string, header: Column<T>["header"], value: (row: T) => V, format: (v: V) => string, extra: Extra<T> = {}): Column<T> {
  return { id, header, align: "num", cell: (row) => format(value(row)), ...extra };
}

/** A count column, thousands grouped. */
export function countColumn<T>(id: string, header: Column<T>["header"], value: (row: T) => number, extra: Extra<T> = {}): Column<T> {
  return numberColumn(id, header, value, formatCount, extra);
}
