import { describe, expect, it } from "vitest";
import { parseTextQuery } from "@/lib/contracts/text-query";
import { markSnippet, SNIPPET_CHARS } from "@/lib/search/snippet";
import { fts5Query, tsQuery } from "@/db/queries/text-search";

const marked = (text: string, q: string) => {
  const s = markSnippet(text, parseTextQuery(q));
  return `${s.cutStart ? "…" : ""}${s.segments.map((g) => (g.hit ? `[${g.text}]` : g.text)).join("")}${s.cutEnd ? "…" : ""}`;
};

describe("the text query language", () => {
  it("reads words, quoted phrases, prefixes and punctuated chunks", () => {
    expect(parseTextQuery('Upstream "rate  limited" retr* api.example.com "half')).toEqual([
      { words: ["upstream"], prefix: false },
      { words: ["rate", "limited"], prefix: false },
      { words: ["retr"], prefix: true },
      { words: ["api", "example", "com"], prefix: false },
      { words: ["half"], prefix: false },
    ]);
    expect(parseTextQuery('"rate lim"* (429) * AND')).toEqual([
      { words: ["rate", "lim"], prefix: true },
      { words: ["429"], prefix: false },
      { words: ["and"], prefix: false },
    ]);
    expect(parseTextQuery('"" * () \'')).toEqual([]);
  });

  it("writes each engine's query with every term quoted or as a bare lexeme", () => {
    const terms = parseTextQuery('"rate lim"* OR x(y)');
    expect(fts5Query(terms)).toBe('"rate lim" * AND "or" AND "x y"');
    expect(tsQuery(terms)).toBe("('rate' <-> 'lim':*) & ('or') & ('x' <-> 'y')");
  });
});

describe("snippets", () => {
  it("marks whole phrases, prefixes and every occurrence, case-insensitively", () => {
    expect(marked("Rate limited: the rate limiter said RATE LIMITED again", '"rate limited"')).toBe("[Rate limited]: the rate limiter said [RATE LIMITED] again");
    expect(marked("retry after retries; Retrying", "retr*")).toBe("[retry] after [retries]; [Retrying]");
    expect(marked("<b>x</b> & y", "b")).toBe("<[b]>x</[b]> & y");
  });

  it("cuts a long text around the first match at word boundaries", () => {
    const text = `${"alpha ".repeat(30)}needle ${"omega ".repeat(40)}`.trim();
    // The window starts 40 characters before the match, moved back to its word (7 words of "alpha "),
    // and ends SNIPPET_CHARS later, moved forward to the end of its word (the 19th "omega").
    expect(marked(text, "needle")).toBe(`…${"alpha ".repeat(7)}[needle] ${"omega ".repeat(18)}omega…`);
    expect(SNIPPET_CHARS).toBe(160);
  });
});
