/**
 * The `n` largest items by value (ties by name) and, when more exist, one "other" entry summing the
 * rest — so a chart's stack always adds up to the total.
 */
export function topN<T>(items: readonly T[], n: number, nameOf: (t: T) => string, valueOf: (t: T) => number): { names: string[]; otherValue: number; otherCount: number } {
  const sorted = [...items].sort((a, b) => valueOf(b) - valueOf(a) || nameOf(a).localeCompare(nameOf(b)));
  const top = sorted.slice(0, n);
  const rest = sorted.slice(n);
  return { names: top.map(nameOf), otherValue: rest.reduce((s, t) => s + valueOf(t), 0), otherCount: rest.length };
}
