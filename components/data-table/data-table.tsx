import { useState, type CSSProperties, type ReactNode } from "react";
import { SortHeader } from "@/components/dashboard/sort-header";
import { ColumnChooser, useColumnChoice, type ColumnChoice } from "./column-choice";
import type { AlignClasses, Column, RowAttributes, SortState } from "./types";

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  /** Undefined while the first answer is on its way: the `placeholder` row shows instead. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  rowAttributes?: (row: T) => RowAttributes;
  /** Defaults to the dashboard's global `data` table style. */
  className?: string;
  align?: AlignClasses;
  testId?: string;
  /** Names the table for assistive technology (and for tests that find it by role). */
  ariaLabel?: string;
  busy?: boolean;
  style?: CSSProperties;
  sort?: SortState;
  placeholder?: ReactNode;
  empty?: ReactNode;
  /**
   * Names the table for its column chooser (and the stored choice); the first column then stays in
   * place while the others scroll sideways under it.
   */
  chooser?: string;
}

// The global `table.data` sheet right-aligns by default, so only text columns need a class.
const DATA_ALIGN: AlignClasses = { text: "text" };

const resolve = <T,>(value: string | ((row: T) => string | undefined) | undefined, row: T) =>
  typeof value === "function" ? value(row) : value;

/** A table declared by its columns; every dashboard table renders through it so they look and sort alike. */
export function DataTable<T>(props: DataTableProps<T>) {
  return props.chooser === undefined ? <TableOf {...props} choice={NO_CHOICE} /> : <ChosenColumnsTable {...props} chooser={props.chooser} />;
}

const NO_CHOICE: ColumnChoice = {};

/** A table with a column chooser above it: the person's choice (columnChoice) decides which columns show. */
function ChosenColumnsTable<T>(props: DataTableProps<T> & { chooser: string }) {
  const chosen = useColumnChoice(props.chooser);
  return (
    <>
      <ColumnChooser table={props.chooser} columns={props.columns} {...chosen} />
      <TableOf {...props} choice={chosen.choice} />
    </>
  );
}

function TableOf<T>({ columns: all, rows, rowKey, rowAttributes, className = "data", align = DATA_ALIGN, testId, ariaLabel, busy, style, sort, placeholder, empty, chooser, choice }: DataTableProps<T> & { choice: ColumnChoice }) {
  const columns = all.filter((c) => choice[c.id] !== "hidden");
  const alignClass = (c: Column<T>) => (c.align ? align[c.align] : undefined);
  const hide = (c: Column<T>, cls: string | undefined) => {
    const extra = [c.hideBelow ? `hide-${c.hideBelow}` : undefined, c.priority && choice[c.id] !== "shown" ? `prio-${c.priority}` : undefined];
    return [cls, ...extra].filter(Boolean).join(" ") || undefined;
  };
  const note = rows === undefined ? placeholder : rows.length === 0 ? empty : null;
  // The arrows show the order of the rows on screen. A new sort keeps the old rows until its answer
  // lands (or for good when the server stopped answering): the same rows object still carries the
  // order it was answered in, so only a new rows object takes on the requested order.
  const [ordered, setOrdered] = useState<{ rows: typeof rows; sort?: string; dir?: string }>({ rows, sort: sort?.sort, dir: sort?.dir });
  if (ordered.rows !== rows) setOrdered({ rows, sort: sort?.sort, dir: sort?.dir });
  const shownSort = sort && ordered.rows === rows && ordered.sort !== undefined && ordered.dir !== undefined ? { ...sort, sort: ordered.sort, dir: ordered.dir } : sort;
  return (
    <table className={chooser ? `${className} sticky-first` : className} data-testid={testId} aria-label={ariaLabel} aria-busy={busy} style={style}>
      <thead>
        <tr>
          {columns.map((c) => {
            const headerClass = hide(c, c.headerClassName ?? alignClass(c));
            return c.sort && sort ? (
              <SortHeader key={c.id} column={c.sort.key} first={c.sort.first} label={c.header} title={c.title} className={headerClass} {...sort} shown={shownSort} />
            ) : (
              <th key={c.id} className={headerClass} title={c.title} scope="col">
                {c.header}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows?.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {columns.map((c) => {
              const props = { className: hide(c, resolve(c.cellClassName, row) ?? alignClass(c)), title: c.cellTitle?.(row), ...c.cellAttributes?.(row) };
              return c.rowHeader ? (
                <th key={c.id} scope="row" {...props}>
                  {c.cell(row)}
                </th>
              ) : (
                <td key={c.id} {...props}>
                  {c.cell(row)}
                </td>
              );
            })}
          </tr>
        ))}
        {note != null && note !== false && (
          <tr>
            <td colSpan={columns.length} className="empty-state">
              {note}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
