// Tool names, error types and messages are not paths, so a path glob library (picomatch treats `/`
// and leading dots specially) would match them wrongly; `*` and `?` are all a rule needs.

/** A compiled glob: tests a whole string (lower-cased first by the caller when the glob ignores case). */
export type GlobTest = (text: string) => boolean;

/**
 * A glob as a predicate over whole strings: `*` any run of characters, `?` one, the rest literal.
 * With `ignoreCase` the glob is lower-cased and the caller passes lower-cased text (computed once per
 * failure, not once per rule). A glob without wildcards is a string comparison; one with wildcards
 * first checks its longest literal part with `includes`, so the regular expression only runs on
 * texts that could match: a failure walks a hundred rules in microseconds.
 */
export function compileGlob(glob: string, ignoreCase: boolean): GlobTest {
  const g = ignoreCase ? glob.toLowerCase() : glob;
  if (!/[*?]/.test(g)) return (text) => text === g;
  const literal = g.split(/[*?]+/).reduce((a, b) => (b.length > a.length ? b : a), "");
  const re = new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*").replace(/\?/g, ".")}$`, "s");
  return literal === "" ? (text) => re.test(text) : (text) => text.includes(literal) && re.test(text);
}
