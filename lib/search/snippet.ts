import type { TextTerm } from "@/lib/contracts/text-query";
import type { Snippet, SnippetSegment } from "@/lib/contracts/text-search";

/** Characters of text a snippet shows at most; longer texts are cut around the first match. */
export const SNIPPET_CHARS = 160;
/** Characters kept before the first match when a long text is cut. */
const LEAD = 40;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

interface Token {
  word: string;
  start: number;
  end: number;
}

/** Character ranges of `text` that the terms match (whole phrases), sorted and merged. */
export function matchRanges(text: string, terms: readonly TextTerm[]): [number, number][] {
  const tokens: Token[] = [...text.matchAll(WORD)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  const ranges: [number, number][] = [];
  for (const term of terms) {
    const n = term.words.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      const ok = term.words.every((w, j) => {
        const t = tokens[i + j]!.word;
        return term.prefix && j === n - 1 ? t.startsWith(w) : t === w;
      });
      if (ok) ranges.push([tokens[i]!.start, tokens[i + n - 1]!.end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * The snippet of a matching text as plain segments (never markup), identical on both engines: the
 * whole text when short, else SNIPPET_CHARS around the first match, cut at word boundaries.
 */
export function markSnippet(text: string, terms: readonly TextTerm[]): Snippet {
  const ranges = matchRanges(text, terms);
  let from = 0;
  let to = text.length;
  if (text.length > SNIPPET_CHARS) {
    const first = ranges[0]?.[0] ?? 0;
    from = Math.max(0, Math.min(first - LEAD, text.length - SNIPPET_CHARS));
    // Start on a word: skip back to the separator before `from`.
    while (from > 0 && /\S/u.test(text[from - 1]!)) from--;
    to = Math.min(text.length, from + SNIPPET_CHARS);
    while (to < text.length && /\S/u.test(text[to]!)) to++;
  }
  const segments: SnippetSegment[] = [];
  let at = from;
  for (const [s, e] of ranges) {
    if (e <= from || s >= to) continue;
    const a = Math.max(s, from);
    const b = Math.min(e, to);
    if (a > at) segments.push({ text: text.slice(at, a), hit: false });
    segments.push({ text: text.slice(a, b), hit: true });
    at = b;
  }
  if (at < to) segments.push({ text: text.slice(at, to), hit: false });
  return { segments, cutStart: from > 0, cutEnd: to < text.length };
}
