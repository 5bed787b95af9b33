export { countColumn, numberColumn } from "./columns";
export { DataTable, type DataTableProps } from "./data-table";
export { NameCell } from "./name-cell";
export type { AlignClasses, Column, RowAttributes, SortDir, SortState } from "./types";
export { urlSort } from "./url-sort";
export { TableScroll } from "./table-scroll";
export { TablePager } from "./table-pager";
export { ColumnChooser, useColumnChoice, type ColumnChoice } from "./column-choice";
export { columnChoiceKey } from "@/lib/query/column-choice-store";
