// One order for the names in a row's `derived` column, so equal sets read (and compare) equal.
const ORDER = ["span_id", "started_at", "ended_at", "attempt", "decision", "error_class", "retryable", "attempts", "tool_version", "release"];

/** The `derived` column value for these field names: comma-separated in one fixed order, null for none. */
export function derivedColumn(names: Iterable<string>): string | null {
  const set = new Set(names);
  if (set.size === 0) return null;
  const rank = (n: string) => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
  return [...set].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(",");
}
