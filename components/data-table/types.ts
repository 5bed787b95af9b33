import type { ReactNode } from "react";

export type SortDir = "asc" | "desc";

/** The table's sort as the URL carries it; headers of sortable columns call `onSort`. */
export interface SortState {
  sort: string;
  dir: string;
  onSort: (column: string, dir: SortDir) => void;
}

/** Class names that align a column; tables styled by different sheets spell them differently. */
export interface AlignClasses {
  text?: string;
  num?: string;
}

/** One column of a {@link DataTable}: its header, how a row's cell renders, and how it sorts. */
export interface Column<T> {
  /** Stable React key of the column. */
  id: string;
  header: ReactNode;
  /** Tooltip of the header (what the number counts). */
  title?: string;
  /** Sets the alignment class on header and cells unless they name their own class. */
  align?: keyof AlignClasses;
  headerClassName?: string;
  cell: (row: T) => ReactNode;
  cellClassName?: string | ((row: T) => string | undefined);
  cellTitle?: (row: T) => string | undefined;
  /** `data-*` attributes of the cell, so that tests can find it. */
  cellAttributes?: (row: T) => RowAttributes;
  /** Renders the cell as the row's header (`<th scope="row">`). */
  rowHeader?: boolean;
  /**
   * Hides the column on narrow screens (`sm`: phones, under 640 px; `md`: under 960 px) so that the
   * key columns keep their room; leave it off the name and the column the table is about.
   */
  hideBelow?: "sm" | "md";
  /** The column's name in the column chooser when its header is not plain text or not unique ("retry_after p90"). */
  label?: string;
  /**
   * How soon the column gives way when the table's box is narrow: 3 hides under 1300 px of table
   * width, 2 under 800 px; unset (1) never. A person's tick in the column chooser overrides it.
   */
  priority?: 2 | 3;
  /** The URL `sort` value of this column; text columns sort ascending first. */
  sort?: { key: string; first?: SortDir };
}

/** `data-*` attributes a row carries so that links and tests can find it. */
export type RowAttributes = Record<`data-${string}`, string>;
