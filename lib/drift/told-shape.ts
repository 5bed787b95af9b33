const MAX_SHAPE = 200;

/**
 * The version of the shaping below. Version 2 masks short tokens mixing letters and digits (`10A`,
 * `A320`, `B12`) whole, where version 1 masked only their digits (`<n>A`). Shapes stored before it
 * (drift accumulators, told steps) are compared through `comparableShape`; failure group keys are
 * re-derived by the re-classification job (docs/classification.md).
 */
export const TOLD_SHAPE_VERSION = 2;

// Digits with a unit or an ordinal suffix are quantities, not identifiers: `30s`, `250ms`, `3rd`, `2x`.
const QUANTITY = /^\d+(?:[.,]\d+)*(?:ms|s|m|h|x|st|nd|rd|th)$/i;
// Words of technical vocabulary that carry digits but name no instance: kept as written.
const TERM = /^(?:utf|ucs|base|sha|md|crc|ipv|http|oauth|tls|ssl|int|uint|float|arm|x|s|ec|p|h|gpt|claude|llama|mp|iso|rfc)\d+$/i;

const mixedToken = (token: string): string => (QUANTITY.test(token) ? "<n>" : TERM.test(token) ? token : "<id>");

// Order matters: quoted values first (they may contain digits), then id-like tokens, then numbers.
const RULES: [RegExp, string | ((token: string) => string)][] = [
  [/"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|“[^”\n]*”/g, "<value>"],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, "<email>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>"],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, "<time>"],
  // A token mixing letters and digits joined by `_` or `-` (bk_1234, ord-9f3a, toolu_01ABC) is an identifier.
  [/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+\b/g, "<id>"],
  // So is a single one (10A, A320, B12, ab12cd34), unless it is a quantity or a technical term.
  [/\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]+\b/g, mixedToken],
  [/\b[0-9a-f]{12,}\b/gi, "<id>"],
  // Digits glued to letters are left: what remains of them is a technical term kept above.
  [/(?<![A-Za-z0-9])[-+]?\d+(?:[.,]\d+)*(?:ms|s|m|h|%)?/g, "<n>"],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The shape of a told text: what stays when the values of one occurrence are taken out. The code
 * itself becomes `<code>` so that a renamed code with the same wording has the same shape.
 */
export function toldShape(text: string, code: string | null): string {
  let out = text;
  if (code) out = out.replace(new RegExp(`(?<![\\w-])${escapeRegExp(code)}(?![\\w-])`, "g"), "<code>");
  for (const [re, placeholder] of RULES) out = typeof placeholder === "string" ? out.replace(re, placeholder) : out.replace(re, placeholder);
  out = out.replace(/\s+/g, " ").trim();
  return out.length > MAX_SHAPE ? `${out.slice(0, MAX_SHAPE - 1)}…` : out;
}

/**
 * A shape of either version in one form, for comparing shapes stored before `TOLD_SHAPE_VERSION` 2
 * with newer ones: every token holding a placeholder glued to letters or digits (version 1's `<n>A`,
 * `A<n>`) and every token mixing letters and digits becomes `<id>`; a quantity's suffix (`<n>st`)
 * drops. Both versions of one text give the same comparable shape.
 */
export function comparableShape(shape: string): string {
  return shape
    .replace(/<n>(?:st|nd|rd|th|x)\b/gi, "<n>")
    .replace(/(?:[A-Za-z0-9]|<n>)*(?:[A-Za-z0-9]<n>|<n>[A-Za-z0-9])(?:[A-Za-z0-9]|<n>)*/g, "<id>")
    .replace(/\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]+\b/g, "<id>");
}
