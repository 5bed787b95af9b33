/** A glob over tool names: `*` stands for any run of characters, everything else for itself. */
function globRegExp(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}

/** Whether a tool is covered by any of an SLO's patterns (names or globs, case-sensitive like tool names). */
export function toolMatches(patterns: readonly string[], tool: string): boolean {
  return patterns.some((p) => (p.includes("*") ? globRegExp(p).test(tool) : p === tool));
}

/** The tools among `known` an SLO covers, sorted; names without `*` are kept even when not seen yet. */
export function coveredTools(patterns: readonly string[], known: readonly string[]): string[] {
  const out = new Set(patterns.filter((p) => !p.includes("*")));
  for (const tool of known) if (toolMatches(patterns, tool)) out.add(tool);
  return [...out].sort();
}
