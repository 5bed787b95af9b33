/**
 * One rule for text on both engines. PostgreSQL's `text` cannot hold U+0000 (it refuses the whole
 * statement); SQLite can. So that both engines store the same thing and a stray NUL never costs a
 * batch, every U+0000 in stored or queried text becomes U+FFFD, the replacement character, and the
 * ingest answer says which records had one replaced.
 */
export const NUL_REPLACEMENT = "\uFFFD";

/** `text` with every U+0000 replaced by {@link NUL_REPLACEMENT} (the same string when it has none). */
export function replaceNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", NUL_REPLACEMENT) : text;
}

/**
 * Replaces U+0000 in every string property of `obj` (and of its nested plain objects) in place;
 * returns how many strings changed.
 */
export function replaceNulInPlace(obj: Record<string, unknown>): number {
  let changed = 0;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (typeof value === "string") {
      if (value.includes("\u0000")) {
        obj[key] = replaceNul(value);
        changed++;
      }
    } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      changed += replaceNulInPlace(value as Record<string, unknown>);
    }
  }
  return changed;
}
