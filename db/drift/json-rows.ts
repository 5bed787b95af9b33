import type { Dialect } from "../store/types";

/**
 * The FROM item that turns one JSON-array parameter into rows, each row's `value` a JSON array whose
 * elements are read with `value ->> n` (text; `CAST(… AS bigint)` for numbers). Both engines spell
 * `->>` the same, so a chunk's keys or rows travel as one parameter and each statement is one text
 * apart from this table function: one statement per chunk instead of one per row on either engine.
 */
export function jsonRows(dialect: Dialect, param: string): string {
  return dialect === "sqlite" ? `json_each(${param})` : `jsonb_array_elements(CAST(${param} AS jsonb)) AS value`;
}
