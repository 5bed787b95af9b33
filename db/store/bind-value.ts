import { replaceNul } from "@/lib/contracts/text";

/**
 * A bound value as both engines store it: booleans as 0/1, undefined as NULL, and text under the
 * rule of lib/contracts/text.ts (U+0000 as U+FFFD), so that a NUL in a query parameter (`?tool=%00`)
 * is looked up like any other unknown value instead of failing the statement on PostgreSQL.
 */
export function bindValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return replaceNul(v);
  return v;
}
