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

/** A case-insensitive LIKE (SQLite's LIKE already is, for ASCII). */
export function ilike(dialect: Dialect): string {
  return dialect === "sqlite" ? "LIKE" : "ILIKE";
}
