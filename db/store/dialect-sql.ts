import type { Dialect } from "./types";

// The few places where SQLite and PostgreSQL spell the same thing differently. Everything else in
// `db/` is one SQL text for both engines.

/** The larger of two values; NULL if either is NULL on both engines (SQLite's scalar max()). */
export function greatest(dialect: Dialect, a: string, b: string): string {
  // PostgreSQL's greatest() ignores NULLs; the CASE keeps SQLite's meaning so results agree.
  return dialect === "sqlite" ? `max(${a}, ${b})` : `CASE WHEN (${a}) IS NULL OR (${b}) IS NULL THEN NULL ELSE greatest(${a}, ${b}) END`;
}

/** The smaller of two values; NULL if either is NULL on both engines (SQLite's scalar min()). */
export function least(dialect: Dialect, a: string, b: string): string {
  return dialect === "sqlite" ? `min(${a}, ${b})` : `CASE WHEN (${a}) IS NULL OR (${b}) IS NULL THEN NULL ELSE least(${a}, ${b}) END`;
}

/**
 * The FROM item that turns one JSON-array parameter into rows, each row's `value` a JSON array whose
 * elements are read with `value ->> n` (text; `CAST(… AS bigint)` for numbers). Both engines spell
 * `->>` the same, so a chunk's keys or rows travel as one parameter and each statement is one text
 * apart from this table function: one statement per chunk instead of one per row on either engine.
 */
export function jsonRows(dialect: Dialect, param: string): string {
  return dialect === "sqlite" ? `json_each(${param})` : `jsonb_array_elements(CAST(${param} AS jsonb)) AS value`;
}
