const MAX_SHAPE = 200;

// Order matters: quoted values first (they may contain digits), then id-like tokens, then numbers.
const RULES: [RegExp, string][] = [
  [/"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|“[^”\n]*”/g, "<value>"],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, "<email>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<id>"],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, "<time>"],
  // A token mixing letters and digits (bk_1234, ord-9f3a, toolu_01ABC) is an identifier.
  [/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+\b|\b(?=\w*\d)(?=\w*[A-Za-z])[A-Za-z0-9]{6,}\b/g, "<id>"],
  [/\b[0-9a-f]{12,}\b/gi, "<id>"],
  [/[-+]?\d+(?:[.,]\d+)*(?:ms|s|m|h|%)?/g, "<n>"],
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
  for (const [re, placeholder] of RULES) out = out.replace(re, placeholder);
  out = out.replace(/\s+/g, " ").trim();
  return out.length > MAX_SHAPE ? `${out.slice(0, MAX_SHAPE - 1)}…` : out;
}
