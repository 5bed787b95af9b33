import { z } from "zod";

/**
 * The full-text search language (docs/search.md), parsed once here so that both engines, the Runs
 * filter and the highlighter read a query the same way. Words are runs of letters and digits, as
 * SQLite's unicode61 tokenizer and the PostgreSQL index (db/migrations/postgres/0014) split text;
 * everything else (quotes aside) separates words, so no input reaches an engine's query syntax.
 *
 * - `upstream timeout`: rows holding both words, anywhere;
 * - `"rate limited"`: the words next to each other, in this order;
 * - `time*`: a word starting with `time` (after a phrase: its last word);
 * - `api.example.com`, `rate-limited`: one chunk of several words is a phrase too.
 */
export interface TextTerm {
  /** Lowercased words that must follow each other. */
  words: string[];
  /** The last word is a prefix. */
  prefix: boolean;
}

/** At most this many terms: each costs the engines one index lookup. */
export const TEXT_TERMS_MAX = 12;

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** The words of a piece of text, lowercased, as the index sees them. */
export function textWords(text: string): string[] {
  return [...text.matchAll(WORD)].map((m) => m[0].toLowerCase());
}

function chunkTerm(chunk: string, forcePhrase: boolean): TextTerm | undefined {
  const words = textWords(chunk);
  if (words.length === 0) return undefined;
  // A trailing `*` right after a word makes that word a prefix (`time*`, `"rate lim"*`).
  const prefix = /[\p{L}\p{N}\p{Co}]\*+$/u.test(chunk) || (forcePhrase && chunk.endsWith("*"));
  return { words, prefix };
}

/** The terms of a query; empty when it holds no letter or digit. */
export function parseTextQuery(q: string): TextTerm[] {
  const terms: TextTerm[] = [];
  // Quoted phrases (a closing quote may be followed by `*`); an unpaired quote is a separator.
  const re = /"([^"]*)"(\*?)|([^\s"]+)/g;
  for (const m of q.matchAll(re)) {
    const term = m[1] !== undefined ? chunkTerm(`${m[1]}${m[2] ?? ""}`, true) : chunkTerm(m[3] ?? "", false);
    if (term) terms.push(term);
  }
  return terms;
}

/**
 * A full-text query in this language: refused with a 400 when it holds no word, or more
 * terms than the engines are asked to intersect.
 */
export const textQuerySchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .superRefine((q, ctx) => {
    const n = parseTextQuery(q).length;
    if (n === 0) ctx.addIssue({ code: "custom", message: "holds no letter or digit to search for" });
    if (n > TEXT_TERMS_MAX) ctx.addIssue({ code: "custom", message: `holds ${n} terms; at most ${TEXT_TERMS_MAX}` });
  });
