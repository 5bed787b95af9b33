/** A bound value as both engines store it: booleans as 0/1, undefined as NULL. */
export function bindValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}
