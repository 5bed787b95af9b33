import type { Snippet } from "@/lib/contracts/text-search";

/**
 * A snippet's segments as text nodes, matches in `<mark>`: the stored text is never read as markup,
 * whatever it holds.
 */
export function SnippetText({ snippet }: { snippet: Snippet }) {
  return (
    <span data-testid="snippet">
      {snippet.cutStart ? "…" : ""}
      {snippet.segments.map((s, i) => (s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
      {snippet.cutEnd ? "…" : ""}
    </span>
  );
}
